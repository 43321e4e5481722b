/**
 * The schema metadata key that names the specification's error code for a field
 * (`.meta({"x-error-code": "invalid_amount"})`): request validation answers with it, and the OpenAPI
 * document shows it. A plain string, so schemas anywhere can declare it without importing the HTTP layer.
 */
export const ERROR_CODE_META_KEY = "x-error-code";

import { loadConfig } from "../platform/config.ts";
import { openApiJson } from "../platform/http/openapi.ts";
import { apiRoutes } from "./api-routes.ts";
import { createGateways } from "./gateways.ts";

/**
 * The committed OpenAPI document, `docs/openapi.json`: what the API deployment serves at
 * `GET /v1/openapi.json`, so a change to any route's documentation shows in review as a diff of that
 * file. `npm run openapi:write` regenerates it; tests/platform/openapi-file.test.ts fails while it
 * differs from what is served.
 */
export const OPENAPI_FILE = "docs/openapi.json";

/** The server the committed document names: the address `make run` serves. */
export const OPENAPI_FILE_SERVER_URL = "http://localhost:8080";

/**
 * The committed form of a served document: the same JSON with the same key order, indented by two
 * spaces and ending in a newline, so that diffs are readable; its compact form is the served bytes.
 */
export function openApiFileText(servedJson: string): string {
  return `${JSON.stringify(JSON.parse(servedJson), null, 2)}\n`;
}

/** The API's routes documented for `OPENAPI_FILE_SERVER_URL`, as `OPENAPI_FILE` holds them. */
export function openApiFileOfRoutes(): string {
  const config = loadConfig({ PUBLIC_BASE_URL: OPENAPI_FILE_SERVER_URL });
  return openApiFileText(openApiJson(apiRoutes(createGateways(config)), { serverUrl: config.publicBaseUrl }));
}

import { gatewayError } from "../platform/errors.ts";
import { CodeGenerationError, GatewayUnavailableError } from "./wallet-gateway.ts";

/**
 * The API's answer to a gateway failure: 502 `code_generation_failed` or `gateway_error`, both to be
 * retried with the same Idempotency-Key. Anything else is returned unchanged (a bug, answered as 500).
 */
export function toApiGatewayError(error: unknown): unknown {
  if (error instanceof CodeGenerationError) {
    return gatewayError(
      "code_generation_failed",
      "The gateway could not issue a code; retry with the same Idempotency-Key.",
    );
  }
  if (error instanceof GatewayUnavailableError) {
    return gatewayError(
      "gateway_error",
      "The wallet gateway is briefly unavailable; retry with the same Idempotency-Key.",
    );
  }
  return error;
}

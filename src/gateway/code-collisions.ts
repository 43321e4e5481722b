import type { Logger } from "../platform/telemetry/logger.ts";
import { toApiGatewayError } from "./api-errors.ts";
import { CodeGenerationError } from "./wallet-gateway.ts";

/** The code the gateway issued is still live for another payment or withdrawal of its world. */
export class CodeCollisionError extends Error {
  constructor(code: string) {
    super(`code ${code} is already live`);
    this.name = "CodeCollisionError";
  }
}

/** How many codes a creation asks the gateway for before it answers `code_generation_failed`. */
const CODES_PER_CREATION_MAX = 3;

/**
 * Creates something that carries a gateway-issued code: `create` issues a code and writes it, and
 * throws `CodeCollisionError` when that code is still live elsewhere in the world (nine random
 * digits collide about once in 10^9 / live codes creations). That is not the client's problem: the
 * creation runs again, with a fresh code, and only a gateway that keeps issuing live codes fails it
 * with 502 `code_generation_failed`. Each run must issue its code anew (a new id: a gateway may answer
 * a second issue for the same id with the same code).
 */
export async function withFreshCodes<T>(logger: Logger, create: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof CodeCollisionError)) {
        throw error;
      }
      logger.warn({ attempt, err: error }, "issued code already live; issuing another");
      if (attempt === CODES_PER_CREATION_MAX) {
        throw toApiGatewayError(new CodeGenerationError(error.message));
      }
    }
  }
}

import type { ApiError } from "./api.ts";

/**
 * The field a 400 answer is about, as the API names it at the start of its message
 * (`display_name: …`, or `body.display_name: …`); undefined when the message names none.
 */
export function parameterOf(error: ApiError): string | undefined {
  return /^(?:body\.)?([a-z_]+):/.exec(error.message)?.[1];
}

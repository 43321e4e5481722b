import type { NextFunction, Request, Response } from "express";
import { databaseUnavailableError } from "../db/unavailable.ts";
import { ApiError, internalError, invalidRequest } from "../errors.ts";

/** Answers any request no route matched: a 404 in the API's envelope. */
export function routeNotFound(request: Request): never {
  throw new ApiError({
    status: 404,
    type: "invalid_request",
    code: "route_not_found",
    message: `No route ${request.method} ${request.path}.`,
  });
}

/**
 * The one Express error handler: maps what was thrown to its status and envelope, and logs a 5xx with
 * the request id. A response already under way (a streamed export) can only be cut off.
 */
export function answerError(error: unknown, request: Request, response: Response, _next: NextFunction): void {
  const apiError = toApiError(error);
  if (apiError.status >= 500) {
    request.log.error({ err: error, requestId: request.id }, "request failed");
  }
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.status(apiError.status).set(apiError.headers).json(apiError.toEnvelope());
}

/** Maps anything thrown to the API's error: our own errors, body-parser's, or an unexpected fault. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) {
    return error;
  }
  const bodyParserError = error as { type?: string; status?: number };
  switch (bodyParserError.type) {
    case "entity.parse.failed":
      return invalidRequest("invalid_json", "The request body is not valid JSON.");
    case "entity.too.large":
      return new ApiError({
        status: 413,
        type: "invalid_request",
        code: "body_too_large",
        message: "The request body is too large.",
      });
    case "encoding.unsupported":
    case "charset.unsupported":
      return new ApiError({
        status: 415,
        type: "invalid_request",
        code: "unsupported_encoding",
        message: "The request body's encoding is not supported; send UTF-8 JSON.",
      });
    default:
      if (
        bodyParserError.type !== undefined &&
        typeof bodyParserError.status === "number" &&
        bodyParserError.status < 500
      ) {
        return invalidRequest("invalid_body", "The request body could not be read.");
      }
      return databaseUnavailableError(error) ?? internalError();
  }
}

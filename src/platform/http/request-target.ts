import type { NextFunction, Request, Response } from "express";
import { invalidRequest } from "../errors.ts";
import { stringRuleViolation } from "./request-strings.ts";

/**
 * Checks the request target before routing. The router decodes path parameters with
 * `decodeURIComponent` and fails with a bare error on `%zz`, a lone `%`, `%ff%fe` or the overlong
 * `%C0%AE` (a 500 before this guard); the query parser instead keeps or replaces what it cannot decode,
 * so `?ref=%ff` silently became U+FFFD. Both are refused here: the path with 400 `invalid_path`, the
 * query string with 400 `invalid_query`. A decoded path segment must also follow the string rule
 * (no NUL or other control character), since path ids reach SQL.
 */
export function refuseMalformedTarget(request: Request, _response: Response, next: NextFunction): void {
  const path = request.path;
  for (const segment of path.split("/")) {
    const decoded = decodedOrUndefined(segment);
    if (decoded === undefined) {
      throw invalidRequest("invalid_path", "The request path holds a malformed percent-escape (not UTF-8).");
    }
    const violation = stringRuleViolation(decoded);
    if (violation !== undefined) {
      throw invalidRequest("invalid_path", `The request path ${violation}.`);
    }
  }
  const queryStart = request.originalUrl.indexOf("?");
  if (queryStart !== -1) {
    for (const component of request.originalUrl.slice(queryStart + 1).split(/[&=]/)) {
      if (decodedOrUndefined(component.replaceAll("+", " ")) === undefined) {
        throw invalidRequest("invalid_query", "The query string holds a malformed percent-escape (not UTF-8).");
      }
    }
  }
  next();
}

function decodedOrUndefined(component: string): string | undefined {
  try {
    return decodeURIComponent(component);
  } catch {
    return undefined;
  }
}

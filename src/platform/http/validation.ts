import { z } from "zod";
import { ERROR_CODE_META_KEY } from "../../kernel/error-code.ts";
import { type ApiError, invalidRequest } from "../errors.ts";

/**
 * Request validation. Schemas are strict zod objects; a failure becomes a 400 `invalid_request`
 * whose code is the one the specification gives the field (for example `invalid_amount`), declared
 * on the field with `.meta({"x-error-code": …})`, or else a generic code:
 * `parameter_missing`, `parameter_invalid` or `parameter_unknown`.
 */

/** Parses `input` with `schema`, throwing the API's 400 error on failure; no schema, no input. */
export function parseRequestPart<S extends z.ZodType>(schema: S, input: unknown, part: string): z.output<S>;
export function parseRequestPart<S extends z.ZodType>(
  schema: S | undefined,
  input: unknown,
  part: string,
): z.output<S> | undefined;
export function parseRequestPart<S extends z.ZodType>(
  schema: S | undefined,
  input: unknown,
  part: string,
): z.output<S> | undefined {
  if (schema === undefined) {
    return undefined;
  }
  const result = schema.safeParse(input);
  if (result.success) {
    return result.data;
  }
  throw errorForIssue(schema, input, result.error.issues[0], part);
}

function errorForIssue(schema: z.ZodType, input: unknown, issue: z.core.$ZodIssue | undefined, part: string): ApiError {
  if (issue === undefined) {
    return invalidRequest("parameter_invalid", `The request ${part} is invalid.`);
  }
  if (issue.code === "unrecognized_keys") {
    const location = issue.path.length > 0 ? ` in ${issue.path.join(".")}` : "";
    return invalidRequest("parameter_unknown", `Unknown parameter${location}: ${issue.keys.join(", ")}.`);
  }
  const field = issue.path.length > 0 ? issue.path.join(".") : part;
  const declaredCode = errorCodeAt(schema, issue.path);
  if (declaredCode !== undefined) {
    return invalidRequest(declaredCode, `${field}: ${issue.message}`);
  }
  if (issue.path.length === 0 && (input === undefined || input === null)) {
    return invalidRequest("parameter_missing", `The request ${part} is missing.`);
  }
  if (valueAt(input, issue.path) === undefined) {
    return invalidRequest("parameter_missing", `Missing required parameter: ${field}.`);
  }
  return invalidRequest("parameter_invalid", `${field}: ${issue.message}`);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") {
      return undefined;
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Follows `path` through the schema and returns the innermost declared error code on the way. */
function errorCodeAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  let current: z.ZodType | undefined = schema;
  let found: string | undefined;
  let index = 0;
  while (current !== undefined) {
    const code = z.globalRegistry.get(current)?.[ERROR_CODE_META_KEY];
    if (typeof code === "string") {
      found = code;
    }
    const definition = current._zod.def as unknown as Record<string, unknown> & { type: string };
    if ("innerType" in definition) {
      current = definition.innerType as z.ZodType;
      continue;
    }
    if (definition.type === "pipe") {
      current = definition.in as z.ZodType;
      continue;
    }
    if (index >= path.length) {
      break;
    }
    const key = path[index];
    index += 1;
    if (definition.type === "object") {
      current = (definition.shape as Record<string, z.ZodType>)[String(key)];
    } else if (definition.type === "array") {
      current = definition.element as z.ZodType;
    } else {
      break;
    }
  }
  return found;
}

/** An MSISDN of the form 263 followed by digits: `invalid_msisdn` otherwise. */
export const msisdnSchema = z
  .string()
  .regex(/^263[0-9]{6,12}$/, "expected 263 followed by 6 to 12 digits")
  .meta({ [ERROR_CODE_META_KEY]: "invalid_msisdn", description: "Wallet number: 263 followed by digits." });

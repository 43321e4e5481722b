import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { ApiError, invalidRequest } from "../errors.ts";
import { refuseUnsafeValues } from "./request-strings.ts";

/**
 * The JSON body parser of the API: express's, made strict about what it lets through.
 * - UTF-8 only (RFC 8259 §8.1): another charset is 415 `unsupported_encoding`, bytes that are not
 *   UTF-8 are 400 `invalid_encoding` (instead of silently becoming U+FFFD).
 * - A `Content-Encoding` (gzip, deflate, br, zstd) over bytes that are not in it is 400
 *   `invalid_encoding`, not a 500.
 * - A key repeated in one object is 400 `invalid_json` naming the key: `JSON.parse` keeps the last one
 *   silently, and `{"amount_cents": 100, "amount_cents": 100000}` must not mean either.
 * - Nesting deeper than `JSON_DEPTH_MAX` is 400 `invalid_json`: no request of the API nests deeper
 *   than a few levels, and later walks over the body stay cheap.
 */

export const JSON_DEPTH_MAX = 32;

const JSON_MEDIA_TYPES = ["application/json", "application/*+json"];

export function jsonBodyParser(options: { limitBytes: number }): RequestHandler[] {
  const parse = express.json({
    limit: options.limitBytes,
    type: JSON_MEDIA_TYPES,
    verify: (_request, _response, bytes, charset) => verifyJsonBytes(bytes, charset),
  });
  const mapReadError = (error: unknown, request: Request, _response: Response, next: NextFunction) => {
    next(bodyReadError(error, request));
  };
  return [parse, mapReadError as unknown as RequestHandler];
}

/**
 * The parser of a route that reads text of another media type (`textBody`, a CSV upload): UTF-8 only,
 * its own size limit, the same string rule as JSON strings. A body of another type is left unread (and
 * then refused by `jsonBodyOf` as a missing one).
 */
export function textBodyParser(options: { mediaType: string; limitBytes: number }): RequestHandler[] {
  const parse = express.text({
    limit: options.limitBytes,
    type: options.mediaType,
    defaultCharset: "utf-8",
    verify: (_request, _response, bytes, charset) => {
      verifyUtf8(bytes, charset);
    },
  });
  const refuseUnsafe = (request: Request, _response: Response, next: NextFunction) => {
    refuseUnsafeValues(request.body, "body");
    next();
  };
  const mapReadError = (error: unknown, request: Request, _response: Response, next: NextFunction) => {
    next(bodyReadError(error, request));
  };
  return [parse, refuseUnsafe, mapReadError as unknown as RequestHandler];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function verifyUtf8(bytes: Buffer, charset: string | undefined): string {
  if (charset !== undefined && charset.toLowerCase() !== "utf-8" && charset.toLowerCase() !== "utf8") {
    throw new ApiError({
      status: 415,
      type: "invalid_request",
      code: "unsupported_encoding",
      message: "The request body's charset is not supported; send UTF-8.",
    });
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalidRequest("invalid_encoding", "The request body is not valid UTF-8.");
  }
}

function verifyJsonBytes(bytes: Buffer, charset: string | undefined): void {
  const text = verifyUtf8(bytes, charset);
  try {
    JSON.parse(text);
  } catch {
    // Not JSON at all: the parser that runs next says so with `invalid_json`.
    return;
  }
  refuseDuplicateKeysAndDeepNesting(text);
}

/**
 * Scans valid JSON text once, keeping per open object the set of its keys. Keys are compared decoded,
 * so `"a"` and `"\u0061"` are the same key.
 */
function refuseDuplicateKeysAndDeepNesting(text: string): void {
  const open: (Set<string> | null)[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index];
    if (character === "{" || character === "[") {
      open.push(character === "{" ? new Set() : null);
      if (open.length > JSON_DEPTH_MAX) {
        throw invalidRequest("invalid_json", `The JSON body is nested deeper than ${JSON_DEPTH_MAX} levels.`);
      }
      index += 1;
    } else if (character === "}" || character === "]") {
      open.pop();
      index += 1;
    } else if (character === '"') {
      const end = endOfString(text, index);
      const keys = open.at(-1);
      if (keys !== undefined && keys !== null && isFollowedByColon(text, end)) {
        const key = JSON.parse(text.slice(index, end)) as string;
        if (keys.has(key)) {
          throw invalidRequest("invalid_json", `The JSON body repeats the key ${JSON.stringify(key)} in one object.`);
        }
        keys.add(key);
      }
      index = end;
    } else {
      index += 1;
    }
  }
}

/** The index just past the closing quote of the string starting at `start`. */
function endOfString(text: string, start: number): number {
  let index = start + 1;
  while (text[index] !== '"') {
    index += text[index] === "\\" ? 2 : 1;
  }
  return index + 1;
}

function isFollowedByColon(text: string, from: number): boolean {
  let index = from;
  while (text[index] === " " || text[index] === "\t" || text[index] === "\n" || text[index] === "\r") {
    index += 1;
  }
  return text[index] === ":";
}

/**
 * The JSON body of a request to a route that reads one; undefined when the request carries no body.
 * A body the parser left unread (sent as text/plain, as a form, or without a Content-Type) is refused
 * as a missing one is, 400 `parameter_missing`: taken for no body it would mean what no body means
 * (a mockpay without a body pays, whatever the unread body asked for), and a route whose body is
 * required answered it with that code already.
 */
export function jsonBodyOf(request: Request): unknown {
  if (request.body === undefined && declaresContent(request)) {
    throw invalidRequest(
      "parameter_missing",
      "The request body was not read: send it as JSON, with Content-Type: application/json.",
    );
  }
  return request.body;
}

/**
 * Whether the request declares bytes of a body: a Content-Length above zero (a client sending no body
 * may still send `Content-Length: 0`), or a chunked body, whose length is unknown until it is read.
 */
function declaresContent(request: Request): boolean {
  return request.get("transfer-encoding") !== undefined || Number(request.get("content-length") ?? "0") > 0;
}

/** An error raised while reading the body, as the API's error (body-parser's own types are mapped later). */
function bodyReadError(error: unknown, request: Request): unknown {
  if (error instanceof ApiError) {
    return error;
  }
  const readError = error as { type?: string; status?: number };
  if (readError.type !== undefined || typeof readError.status !== "number" || readError.status >= 500) {
    return error;
  }
  // Without a type, a 4xx from the body parser is the decompression stream's failure: the bytes do not
  // match the declared Content-Encoding.
  const contentEncoding = request.get("content-encoding") ?? "identity";
  if (contentEncoding.toLowerCase() !== "identity") {
    return invalidRequest(
      "invalid_encoding",
      `The request body is not valid ${contentEncoding.toLowerCase()} data, as its Content-Encoding declares.`,
    );
  }
  return invalidRequest("invalid_body", "The request body could not be read.");
}

import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import { createServer, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../errors.ts";

/** Listens on `port` (0 picks a free one) and resolves once the server accepts connections. */
export function listen(handler: RequestListener, port: number, host = "0.0.0.0"): Promise<Server> {
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    trackResponse(request, response);
    if (!refuseUnhostedRequest(request, response)) {
      handler(request, response);
    }
  });
  // Above typical load-balancer idle timeouts, so the balancer, not us, closes idle keep-alives.
  server.keepAliveTimeout = 65_000;
  server.on("clientError", answerClientError);
  server.on("checkExpectation", refuseExpectation);
  server.on("connect", refuseConnect);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

export function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new TypeError("server is not listening on a TCP port");
  }
  return address.port;
}

/**
 * Stops accepting connections, lets in-flight requests finish, closes idle keep-alive connections at
 * once and, after `timeoutMs`, whatever is still open.
 */
export async function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(idleSweep);
    clearTimeout(deadline);
  }
}

/**
 * Each connection's responses that are not closed yet: a parser error must not overtake the answer to
 * a request received whole before it.
 */
const openResponses = new WeakMap<Duplex, Set<ServerResponse>>();
function trackResponse(request: IncomingMessage, response: ServerResponse): void {
  const open = openResponses.get(request.socket) ?? new Set<ServerResponse>();
  if (open.size === 0) {
    openResponses.set(request.socket, open);
  }
  open.add(response);
  response.once("close", () => open.delete(response));
}

/** Connections whose refusal is under way: an errored parser reports its error again for each later chunk. */
const refusing = new WeakSet<Duplex>();

/**
 * What Node's HTTP parser refuses (headers above its size limit, a repeated or conflicting
 * Content-Length, a control character in a header, a header timeout), answered with the API's
 * envelope instead of Node's bare status line, and the connection closed: the parser cannot tell
 * where the next request would start. Requests received whole before the refused bytes on the same
 * connection (pipelined, or a request followed by garbage) are answered first: one may have moved
 * money, and a client that saw only the 400 would be told by the spec to retry it under a new key.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (refusing.has(socket)) {
    return;
  }
  refusing.add(socket);
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal = clientErrorAnswer(error.code);
  // A response already under way belongs to a request that Node read, or began to answer: it is
  // finished before the refusal, which then answers the request the parser gave up on.
  const answeredFirst = [...(openResponses.get(socket) ?? [])].filter(
    (response) => response.req.complete || response.headersSent,
  );
  if (answeredFirst.length === 0) {
    endWithAnswer(socket, refusal);
    return;
  }
  void Promise.all(answeredFirst.map((response) => new Promise((closed) => response.once("close", closed)))).then(() =>
    endWithAnswer(socket, refusal),
  );
}

/**
 * Node accepts a CONNECT only when a `connect` listener takes the socket, and otherwise drops the
 * connection without a word. The API is no proxy: the envelope says so.
 */
function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  endWithAnswer(
    socket,
    new ApiError({
      status: 400,
      type: "invalid_request",
      code: "invalid_http_request",
      message: "CONNECT is not served: this is not a proxy.",
    }),
  );
}

/** Writes `answer` as the connection's last response (when it can still be written) and closes it. */
function endWithAnswer(socket: Duplex, answer: ApiError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(answer.toEnvelope());
  // Destroyed once the answer is flushed, as Node does: a half-closed socket would otherwise hold a
  // graceful shutdown until the peer closes its side.
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? "Bad Request"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
    () => socket.destroy(),
  );
}

/**
 * Node's own answers to a request it reads but will not pass on, each a bare status without a body:
 * an HTTP/1.1 request without a Host header (400) and an `Expect` other than 100-continue (417).
 * Node leaves both to us when asked (`requireHostHeader: false`, a `checkExpectation` listener).
 */
function refuseUnhostedRequest(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.httpVersion !== "1.1" || request.headers.host !== undefined) {
    return false;
  }
  answerWithoutHandler(
    response,
    new ApiError({
      status: 400,
      type: "invalid_request",
      code: "invalid_http_request",
      message: "An HTTP/1.1 request must name its Host.",
    }),
  );
  return true;
}

function refuseExpectation(request: IncomingMessage, response: ServerResponse): void {
  answerWithoutHandler(
    response,
    new ApiError({
      status: 417,
      type: "invalid_request",
      code: "expectation_failed",
      message: `The expectation "${request.headers.expect ?? ""}" is not supported; only 100-continue is.`,
    }),
  );
}

/** The envelope, and the connection closed after it: the request's body, if any, is not read. */
function answerWithoutHandler(response: ServerResponse, answer: ApiError): void {
  const body = JSON.stringify(answer.toEnvelope());
  response.shouldKeepAlive = false;
  response.writeHead(answer.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}

function clientErrorAnswer(code: string | undefined): ApiError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError({
        status: 431,
        type: "invalid_request",
        code: "headers_too_large",
        message: "The request's headers are too large.",
      });
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new ApiError({
        status: 413,
        type: "invalid_request",
        code: "body_too_large",
        message: "The request's chunk extensions are too large.",
      });
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError({
        status: 408,
        type: "invalid_request",
        code: "request_timeout",
        message: "The request was not received in time.",
      });
    default:
      return new ApiError({
        status: 400,
        type: "invalid_request",
        code: "invalid_http_request",
        message: "The request is not valid HTTP/1.1 (malformed or conflicting headers).",
      });
  }
}

import type { RequestListener, Server } from "node:http";
import { createServer } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError } from "../errors.ts";

/** Listens on `port` (0 picks a free one) and resolves once the server accepts connections. */
export function listen(handler: RequestListener, port: number, host = "0.0.0.0"): Promise<Server> {
  const server = createServer(handler);
  // Above typical load-balancer idle timeouts, so the balancer, not us, closes idle keep-alives.
  server.keepAliveTimeout = 65_000;
  server.on("clientError", answerClientError);
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
 * What Node's HTTP parser refuses before any request exists (headers above its size limit, a repeated
 * or conflicting Content-Length, a control character in a header, a header timeout), answered with the
 * API's envelope instead of Node's bare status line. The connection is closed afterwards: the parser
 * cannot tell where the next request would start.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // Like Node's own handler: only when nothing of a response has gone out on this connection yet.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const apiError = clientErrorAnswer(error.code);
  const body = JSON.stringify(apiError.toEnvelope());
  // Destroyed once the answer is flushed, as Node does: a half-closed socket would otherwise hold a
  // graceful shutdown until the peer closes its side.
  socket.end(
    `HTTP/1.1 ${apiError.status} ${STATUS_TEXT[apiError.status] ?? "Bad Request"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
    () => socket.destroy(),
  );
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
};

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

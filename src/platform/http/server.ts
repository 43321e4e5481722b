import type { RequestListener, Server } from "node:http";
import { createServer } from "node:http";

/** Listens on `port` (0 picks a free one) and resolves once the server accepts connections. */
export function listen(handler: RequestListener, port: number, host = "0.0.0.0"): Promise<Server> {
  const server = createServer(handler);
  // Above typical load-balancer idle timeouts, so the balancer, not us, closes idle keep-alives.
  server.keepAliveTimeout = 65_000;
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

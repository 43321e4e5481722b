import { Agent, request as httpRequest, type Server } from "node:http";
import { listen, portOf } from "../../src/platform/http/server.ts";

/**
 * A loopback load balancer that behaves like a Kubernetes Service in front of pods: it polls each
 * backend's /readyz and sends requests round-robin to the backends that answered 200, never retrying.
 * A request that finds no ready backend, or whose backend fails it, is answered 502/503.
 */
export type ReadinessProxy = {
  baseUrl: string;
  add: (backendUrl: string) => void;
  remove: (backendUrl: string) => void;
  /** Resolves once the backend has answered /readyz with 200 and receives traffic. */
  waitUntilRouted: (backendUrl: string, timeoutMs?: number) => Promise<void>;
  served: () => Record<string, number>;
  close: () => Promise<void>;
};

export async function startReadinessProxy(pollIntervalMs = 100): Promise<ReadinessProxy> {
  const backends = new Map<string, { ready: boolean }>();
  // Kept after a backend is removed, so a test can see who served what.
  const served = new Map<string, number>();
  const agent = new Agent({ keepAlive: true });
  let next = 0;

  const poll = async () => {
    await Promise.all(
      [...backends].map(async ([url, state]) => {
        const status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
          (response) => response.status,
          () => 0,
        );
        state.ready = status === 200;
      }),
    );
  };
  let polling = true;
  const pollLoop = (async () => {
    while (polling) {
      await poll();
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    }
  })();

  const server: Server = await listen(
    (request, response) => {
      const ready = [...backends].filter(([, state]) => state.ready);
      const chosen = ready[next++ % Math.max(ready.length, 1)];
      if (chosen === undefined) {
        response.writeHead(503).end("no ready backend");
        return;
      }
      const [url] = chosen;
      const upstream = httpRequest(
        `${url}${request.url}`,
        { method: request.method, headers: request.headers, agent },
        (upstreamResponse) => {
          served.set(url, (served.get(url) ?? 0) + 1);
          response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
          upstreamResponse.pipe(response);
        },
      );
      upstream.on("error", (error) => {
        if (!response.headersSent) {
          response.writeHead(502).end(`backend ${url} failed: ${error.message}`);
        } else {
          response.destroy(error);
        }
      });
      request.pipe(upstream);
    },
    0,
    "127.0.0.1",
  );

  return {
    baseUrl: `http://127.0.0.1:${portOf(server)}`,
    add: (url) => {
      backends.set(url, { ready: false });
    },
    remove: (url) => {
      backends.delete(url);
    },
    waitUntilRouted: async (url, timeoutMs = 180_000) => {
      const deadline = Date.now() + timeoutMs;
      while (backends.get(url)?.ready !== true) {
        if (Date.now() > deadline) {
          throw new Error(`${url} never became ready`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    served: () => Object.fromEntries(served),
    close: async () => {
      polling = false;
      await pollLoop;
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

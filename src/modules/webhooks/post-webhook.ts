import http from "node:http";
import https from "node:https";
import { assertPublicHost, guardedLookup, hostOf } from "./target-guard.ts";

/** What one delivery attempt observed: a status code, or the reason no response arrived. */
export type AttemptOutcome = { responseStatus: number | null; error: string | null; durationMs: number };

const RESPONSE_BYTES_READ_MAX = 64 * 1024;

/**
 * Posts a signed webhook body. Redirects are not followed (a 3xx is a failure), the whole exchange
 * has a deadline, and only the first 64 KiB of the response are read. With `guardPrivate`, the target
 * must resolve to public addresses only, checked inside the connection's own lookup.
 */
export function createWebhookPoster(options: { timeoutMs: number }) {
  // Keep-alive agents: deliveries to the same receiver reuse connections.
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: 50 }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: 50 }),
  };

  async function post(request: {
    url: string;
    body: string;
    headers: Record<string, string>;
    guardPrivate: boolean;
  }): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(request.url);
    const protocol = url.protocol === "https:" ? https : http;
    const agent = url.protocol === "https:" ? agents["https:"] : agents["http:"];
    try {
      if (request.guardPrivate) {
        await assertPublicHost(hostOf(url));
      }
      const responseStatus = await new Promise<number>((resolve, reject) => {
        const outgoing = protocol.request(
          url,
          {
            method: "POST",
            agent,
            headers: {
              ...request.headers,
              "Content-Type": "application/json",
              "Content-Length": String(Buffer.byteLength(request.body)),
              "User-Agent": "pos-platform-webhooks/1",
            },
            ...(request.guardPrivate ? { lookup: guardedLookup } : {}),
            signal: AbortSignal.timeout(options.timeoutMs),
          },
          (response) => {
            let bytesRead = 0;
            response.on("data", (chunk: Buffer) => {
              bytesRead += chunk.length;
              if (bytesRead > RESPONSE_BYTES_READ_MAX) {
                response.destroy();
                resolve(response.statusCode ?? 0);
              }
            });
            response.on("end", () => resolve(response.statusCode ?? 0));
            response.on("error", reject);
          },
        );
        outgoing.on("error", reject);
        outgoing.end(request.body);
      });
      return { responseStatus, error: null, durationMs: elapsed() };
    } catch (error) {
      return { responseStatus: null, error: describe(error, options.timeoutMs), durationMs: elapsed() };
    }
  }

  return {
    post,
    close: () => {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError" || error.name === "AbortError") {
      return `no response within ${timeoutMs} ms`;
    }
    const code = (error as NodeJS.ErrnoException).code;
    return (code === undefined ? error.message : `${code}: ${error.message}`).slice(0, 500);
  }
  return String(error).slice(0, 500);
}

import http from "node:http";
import https from "node:https";
import { RESPONSE_EXCERPT_BYTES_MAX } from "./schemas.ts";
import { assertPublicHost, guardedLookup, hostOf } from "./target-guard.ts";

/**
 * What one delivery attempt observed: a status code and the start of the response body, or the reason
 * no response arrived.
 */
export type AttemptOutcome = {
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
};

const RESPONSE_BYTES_READ_MAX = 64 * 1024;

/**
 * Posts a signed webhook body. Redirects are not followed (a 3xx is a failure), the whole exchange
 * has a deadline, and only the first 64 KiB of the response are read, of which the first 512 bytes are
 * kept for the delivery log. With `guardPrivate`, the target
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
    const agent = url.protocol === "https:" ? agents["https:"] : agents["http:"];
    try {
      if (request.guardPrivate) {
        await assertPublicHost(hostOf(url));
      }
      const response = await exchange(url, request, { agent, timeoutMs: options.timeoutMs });
      return { responseStatus: response.status, responseExcerpt: response.excerpt, error: null, durationMs: elapsed() };
    } catch (error) {
      return {
        responseStatus: null,
        responseExcerpt: null,
        error: describe(error, options.timeoutMs),
        durationMs: elapsed(),
      };
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

/**
 * One POST and its answer: the status, and the kept start of the body (at most 64 KiB read). Rejects
 * on a network error, a refused lookup or the deadline.
 */
function exchange(
  url: URL,
  request: { body: string; headers: Record<string, string>; guardPrivate: boolean },
  connection: { agent: http.Agent; timeoutMs: number },
): Promise<{ status: number; excerpt: string }> {
  const protocol = url.protocol === "https:" ? https : http;
  const { agent } = connection;
  return new Promise((resolve, reject) => {
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
        signal: AbortSignal.timeout(connection.timeoutMs),
      },
      (incoming) => {
        let bytesRead = 0;
        const excerpt: Buffer[] = [];
        const settle = () => resolve({ status: incoming.statusCode ?? 0, excerpt: excerptOf(Buffer.concat(excerpt)) });
        incoming.on("data", (chunk: Buffer) => {
          if (bytesRead < RESPONSE_EXCERPT_BYTES_MAX) {
            excerpt.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES_MAX - bytesRead));
          }
          bytesRead += chunk.length;
          if (bytesRead > RESPONSE_BYTES_READ_MAX) {
            incoming.destroy();
            settle();
          }
        });
        incoming.on("end", settle);
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

/**
 * The kept bytes as text: decoded as UTF-8 (invalid bytes become U+FFFD), a character cut by the byte
 * limit dropped rather than mangled, and NUL removed (PostgreSQL text cannot hold it).
 */
function excerptOf(bytes: Buffer): string {
  return new TextDecoder("utf-8").decode(bytes, { stream: true }).replaceAll("\u0000", "");
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

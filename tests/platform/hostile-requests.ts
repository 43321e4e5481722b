import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { z } from "zod";
import { type Database, sql } from "../../src/platform/db/pool.ts";

/**
 * Helpers of the hostile-input tests: requests sent byte for byte (no client library re-encodes a path
 * or fixes a header), and the row counts that prove a refused request wrote nothing.
 */

export type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** One HTTP request with exactly this method, path, headers and body bytes. */
export function sendRaw(
  baseUrl: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: {
          ...(options.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
        agent: false,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("error", reject);
        incoming.on("end", () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/**
 * Writes `bytes` on a fresh TCP connection and reads until the server closes it: for what Node's HTTP
 * parser refuses before any request object exists. Answers the first response's status and what
 * follows its headers, and the statuses of every response the connection carried, in order.
 */
export function sendOverSocket(
  port: number,
  bytes: string | Buffer,
): Promise<{ status: number; body: string; statuses: number[] }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const headerEnd = text.indexOf("\r\n\r\n");
      resolve({
        status,
        body: headerEnd === -1 ? "" : text.slice(headerEnd + 4),
        statuses: statusesOf(Buffer.concat(chunks).toString("latin1")),
      });
    });
    socket.write(bytes);
  });
}

/** The statuses of the responses in `text` (one character a byte), each framed by its Content-Length. */
function statusesOf(text: string): number[] {
  const statuses: number[] = [];
  let offset = 0;
  while (offset < text.length) {
    const headerEnd = text.indexOf("\r\n\r\n", offset);
    const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text.slice(offset))?.[1];
    if (status === undefined || headerEnd === -1) {
      break;
    }
    statuses.push(Number(status));
    const length = /^content-length: *(\d+)\r$/im.exec(text.slice(offset, headerEnd + 2))?.[1];
    offset = headerEnd + 4 + Number(length ?? text.length);
  }
  return statuses;
}

const envelopeSchema = z.strictObject({
  error: z.strictObject({
    type: z.enum(["invalid_request", "auth_error", "insufficient_funds", "rate_limited", "api_error", "gateway_error"]),
    code: z.string().regex(/^[a-z][a-z0-9_]*$/),
    message: z.string().min(1),
  }),
});

/** The error envelope in `text`, or undefined when `text` is not exactly one. */
export function envelopeOf(text: string): z.infer<typeof envelopeSchema> | undefined {
  try {
    return envelopeSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The tables that hold money, goods or their consequences: a refused request must not add a row to any. */
export const MONEY_TABLES = [
  "payments",
  "sales",
  "payouts",
  "withdrawal_codes",
  "bank_changes",
  "utility_payments",
  "ledger_transactions",
  "ledger_postings",
  "ledger_balances",
  "stock_moves",
  "products",
  "events",
  "webhook_endpoints",
  "webhook_deliveries",
  "merchants",
  "api_keys",
] as const;

/**
 * Row counts of `MONEY_TABLES`, and of idempotency records other than a stored 4xx answer (a money
 * POST refused by validation stores its 4xx for replay, by design), in one statement.
 */
export async function moneyTableCounts(database: Database): Promise<Record<string, number>> {
  const counts = MONEY_TABLES.map((table) => sql.fragment`(SELECT count(*)::int FROM ${sql.identifier([table])})`);
  const row = await database.one(
    sql.type(z.object({ counts: z.array(z.number()), idempotency_keys_not_4xx: z.number() }))`
      SELECT ARRAY[${sql.join(counts, sql.fragment`, `)}] AS counts,
        (SELECT count(*)::int FROM idempotency_keys
          WHERE response_status IS NULL OR response_status NOT BETWEEN 400 AND 499) AS idempotency_keys_not_4xx`,
  );
  return {
    ...Object.fromEntries(MONEY_TABLES.map((table, index) => [table, row.counts[index] ?? -1])),
    idempotency_keys_not_4xx: row.idempotency_keys_not_4xx,
  };
}

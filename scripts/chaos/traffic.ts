import { randomUUID } from "node:crypto";

/**
 * Merchants' traffic during the run, as a careful client sends it: payments (half settled at once by
 * the test checkout's mockpay, half left to the gateway poller) and payouts, each money POST retried
 * with the same Idempotency-Key on 503, on 409 `idempotency_in_flight` and on network errors, until it
 * gets a final answer. Every answer is recorded with its latency and whether the database was down.
 */

export type Answer = {
  operation: string;
  status: number | "timeout" | "network_error";
  latencyMs: number;
  /** The database was down (stopped or restarting) when the request was sent or answered. */
  duringOutage: boolean;
  /** For 5xx answers: whether the body is the API's error envelope, and its code. */
  envelopeCode?: string;
  retryAfter?: string | null;
};

export type TrafficRecord = {
  answers: Answer[];
  paymentIds: string[];
  payoutIds: string[];
  /** Cash sales acknowledged (201), when the traffic sends sales. */
  saleIds: string[];
  /** Operations given up after their deadline (the key still not answered finally). */
  abandoned: string[];
};

/** A request never takes longer than this: longer counts as hanging. */
export const HANG_MS = 20_000;

type Merchant = { key: string };

export function createTraffic(options: {
  apiUrl: string;
  databaseDown: () => boolean;
  /** Each iteration also rings up a cash sale (the till's money path; posted to the ledger at once). */
  sales?: boolean;
}) {
  const record: TrafficRecord = { answers: [], paymentIds: [], payoutIds: [], saleIds: [], abandoned: [] };

  async function send(operation: string, url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    const sentDuringOutage = options.databaseDown();
    const startedAt = performance.now();
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: kept as text, and a 5xx without the envelope is reported.
      }
      const answer: Answer = {
        operation,
        status: response.status,
        latencyMs: performance.now() - startedAt,
        duringOutage: sentDuringOutage || options.databaseDown(),
      };
      if (response.status >= 500) {
        answer.envelopeCode = (body as { error?: { code?: string } })?.error?.code ?? "(no envelope)";
        answer.retryAfter = response.headers.get("retry-after");
      }
      record.answers.push(answer);
      return { status: response.status, body };
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      record.answers.push({
        operation,
        status: timedOut ? "timeout" : "network_error",
        latencyMs: performance.now() - startedAt,
        duringOutage: sentDuringOutage || options.databaseDown(),
      });
      return { status: 0, body: undefined };
    }
  }

  /** Sends until the answer is final (not 5xx, 409 in flight, or a network error), or gives up. */
  async function untilFinal(
    operation: string,
    request: () => Promise<{ status: number; body: unknown }>,
    giveUpAtMs: number,
  ): Promise<{ status: number; body: unknown } | undefined> {
    let delayMs = 250;
    while (Date.now() < giveUpAtMs) {
      const answer = await request();
      const code = (answer.body as { error?: { code?: string } } | undefined)?.error?.code;
      const retry = answer.status === 0 || answer.status >= 500 || code === "idempotency_in_flight";
      if (!retry) {
        return answer;
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 2000);
    }
    record.abandoned.push(operation);
    return undefined;
  }

  const moneyPost = (merchant: Merchant, path: string, body: unknown) => {
    const idempotencyKey = randomUUID();
    return () =>
      send(`POST ${path}`, `${options.apiUrl}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${merchant.key}`,
          "idempotency-key": idempotencyKey,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });
  };

  /** One customer payment; every second one is paid at once through mockpay. */
  async function payment(merchant: Merchant, payNow: boolean, giveUpAtMs: number): Promise<void> {
    const created = await untilFinal(
      "create payment",
      moneyPost(merchant, "/v1/payments", { amount_cents: 500 + Math.floor(Math.random() * 5000) }),
      giveUpAtMs,
    );
    if (created?.status !== 201) {
      return;
    }
    const id = (created.body as { id: string }).id;
    record.paymentIds.push(id);
    if (payNow) {
      // Not idempotent by key, but by state: a second mockpay of a paid payment is a 409.
      await untilFinal(
        "mockpay",
        () => send("POST /checkout/:id/mockpay", `${options.apiUrl}/checkout/${id}/mockpay`, { method: "POST" }),
        giveUpAtMs,
      );
    }
  }

  async function payout(merchant: Merchant, giveUpAtMs: number): Promise<void> {
    const created = await untilFinal(
      "create payout",
      moneyPost(merchant, "/v1/payouts", { amount_cents: 100, currency: "USD" }),
      giveUpAtMs,
    );
    if (created?.status === 201) {
      record.payoutIds.push((created.body as { id: string }).id);
    }
  }

  async function sale(merchant: Merchant, giveUpAtMs: number): Promise<void> {
    const created = await untilFinal(
      "create sale",
      moneyPost(merchant, "/v1/sales", {
        tender: "cash",
        items: [{ name: "Bread", qty: 1 + Math.floor(Math.random() * 3), unit_cents: 150 }],
      }),
      giveUpAtMs,
    );
    if (created?.status === 201) {
      record.saleIds.push((created.body as { id: string }).id);
    }
  }

  /**
   * Runs `clients` loops until `untilMs`: each sends a payment (and a cash sale, with `sales`), and every fifth iteration a payout.
   * Operations started before `untilMs` may finish (retrying) until `untilMs + graceMs`.
   */
  async function run(merchants: readonly Merchant[], clients: number, untilMs: number, graceMs: number) {
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let iteration = 0; Date.now() < untilMs; iteration += 1) {
          const merchant = merchants[(client + iteration) % merchants.length] as Merchant;
          await payment(merchant, iteration % 2 === 0, untilMs + graceMs);
          if (options.sales === true) {
            await sale(merchant, untilMs + graceMs);
          }
          if (iteration % 5 === 4) {
            await payout(merchant, untilMs + graceMs);
          }
          // A modest pace: this machine also runs PostgreSQL and every service.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    );
  }

  return { record, run, send };
}

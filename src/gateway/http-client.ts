import { gatewayCallDurationSeconds } from "./metrics.ts";
import { paymentCodeSchema } from "./protocol.ts";
import {
  CodeGenerationError,
  GatewayUnavailableError,
  type IssuedPaymentCode,
  type IssuePaymentCodeRequest,
  type PaymentCodeInquiry,
  type PaymentCodeStatus,
  type PaymentGateway,
} from "./wallet-gateway.ts";

/**
 * The live world's gateway: the protocol of docs/gateway-protocol.md over HTTP. Every call has a
 * deadline; calls are idempotent (a code is issued once per payment id), so a failed or unanswered
 * call is retried a bounded number of times with a short backoff, then reported as unavailable.
 */
export function createHttpGateway(options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retries: number;
}): PaymentGateway {
  const base = options.baseUrl.replace(/\/+$/, "");

  /** Times a whole call (retries included) and labels it with its outcome. */
  async function timed<T>(operation: string, work: () => Promise<T>): Promise<T> {
    const stop = gatewayCallDurationSeconds.startTimer({ operation });
    try {
      const result = await work();
      stop({ outcome: "ok" });
      return result;
    } catch (error) {
      stop({ outcome: error instanceof CodeGenerationError ? "code_generation_failed" : "unavailable" });
      throw error;
    }
  }

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    let lastError: Error = new GatewayUnavailableError("no attempt made");
    for (let attempt = 0; attempt <= options.retries; attempt += 1) {
      if (attempt > 0) {
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
      }
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        lastError = new GatewayUnavailableError(`gateway ${method} ${path}: ${(error as Error).message}`);
        continue;
      }
      const payload: unknown = await response.json().catch(() => null);
      if (response.ok) {
        return payload;
      }
      if (response.status === 422) {
        // The gateway answered: a retry would ask again for the same payment; the caller decides.
        throw new CodeGenerationError(`gateway could not issue a code (${JSON.stringify(payload)})`);
      }
      lastError = new GatewayUnavailableError(`gateway ${method} ${path} answered ${response.status}`);
      // Client errors other than 422 will not change on a retry.
      if (response.status < 500 && response.status !== 429) {
        break;
      }
    }
    throw lastError;
  }

  /** A gateway answering nonsense is as good as unavailable: never a 500 of ours. */
  function parsePaymentCode(payload: unknown) {
    const parsed = paymentCodeSchema.safeParse(payload);
    if (!parsed.success) {
      throw new GatewayUnavailableError("the gateway's answer does not follow the protocol");
    }
    return parsed.data;
  }

  return {
    issuePaymentCode: (request: IssuePaymentCodeRequest): Promise<IssuedPaymentCode> =>
      timed("issue_payment_code", async () => {
        const issued = parsePaymentCode(
          await call("POST", "/v1/payment-codes", {
            payment_id: request.paymentId,
            amount_cents: request.amountCents,
            currency: request.currency,
            merchant_name: request.merchantName,
            narration: request.narration,
            expires_at: request.expiresAt.toISOString(),
          }),
        );
        return { code: issued.code, gatewayReference: issued.reference };
      }),
    inquirePaymentCode: (request: PaymentCodeInquiry): Promise<PaymentCodeStatus> =>
      timed("inquire_payment_code", async () => {
        const found = parsePaymentCode(await call("GET", `/v1/payment-codes/${encodeURIComponent(request.code)}`));
        if (found.payment_id !== request.paymentId) {
          throw new GatewayUnavailableError(`gateway code ${request.code} belongs to another payment`);
        }
        switch (found.status) {
          case "paid":
            return { state: "paid", paidAt: new Date(found.paid_at ?? Date.now()), payerMsisdn: found.payer_msisdn };
          case "expired":
            return { state: "expired" };
          case "unusable":
            return { state: "unusable", reason: found.reason ?? "reported unusable by the gateway" };
          case "pending":
            return { state: "pending" };
        }
      }),
  };
}

import { randomInt } from "node:crypto";
import type { Currency } from "../../platform/http/validation.ts";
import type { IssuePaymentCodeWireRequest, PaymentCodeWire } from "../protocol.ts";

/**
 * The simulator's memory: wallets and payment codes. A code past its expiry reads as expired; a code
 * is paid by debiting a payer's wallet, as in the real network.
 */
export type FaultMode = "unavailable" | "code_generation_failed" | "timeout";
export type Operation = "issue_payment_code" | "inquire_payment_code";

export class SimulatorState {
  readonly codes = new Map<string, PaymentCodeWire>();
  private readonly codeByPayment = new Map<string, string>();
  readonly wallets = new Map<string, Map<Currency, number>>();
  private faults: { operation: Operation | "*"; mode: FaultMode; remaining: number }[] = [];
  private issued = 0;

  issue(request: IssuePaymentCodeWireRequest): { code: PaymentCodeWire; created: boolean } {
    const existing = this.codeByPayment.get(request.payment_id);
    if (existing !== undefined) {
      return { code: this.read(existing) as PaymentCodeWire, created: false };
    }
    let code: string;
    do {
      code = String(randomInt(0, 1_000_000_000)).padStart(9, "0");
    } while (this.codes.get(code)?.status === "pending");
    this.issued += 1;
    const record: PaymentCodeWire = {
      code,
      payment_id: request.payment_id,
      reference: `SIM${String(this.issued).padStart(8, "0")}`,
      status: "pending",
      amount_cents: request.amount_cents,
      currency: request.currency,
      expires_at: request.expires_at,
      paid_at: null,
      payer_msisdn: null,
      reason: null,
    };
    this.codes.set(code, record);
    this.codeByPayment.set(request.payment_id, code);
    return { code: record, created: true };
  }

  /** The code as it stands now: a pending code past its expiry has lapsed. */
  read(code: string): PaymentCodeWire | undefined {
    const record = this.codes.get(code);
    if (record !== undefined && record.status === "pending" && Date.parse(record.expires_at) <= Date.now()) {
      record.status = "expired";
    }
    return record;
  }

  fund(msisdn: string, currency: Currency, amountCents: number): number {
    const wallet = this.wallets.get(msisdn) ?? new Map<Currency, number>();
    wallet.set(currency, (wallet.get(currency) ?? 0) + amountCents);
    this.wallets.set(msisdn, wallet);
    return wallet.get(currency) ?? 0;
  }

  /** A payer pays a code from their wallet: refused unless pending and covered. */
  pay(code: string, payerMsisdn: string): { ok: true; code: PaymentCodeWire } | { ok: false; reason: string } {
    const record = this.read(code);
    if (record === undefined) {
      return { ok: false, reason: "no such code" };
    }
    if (record.status !== "pending") {
      return { ok: false, reason: `code is ${record.status}` };
    }
    const balance = this.wallets.get(payerMsisdn)?.get(record.currency) ?? 0;
    if (balance < record.amount_cents) {
      return { ok: false, reason: "insufficient funds in the payer's wallet" };
    }
    this.fund(payerMsisdn, record.currency, -record.amount_cents);
    record.status = "paid";
    record.paid_at = new Date().toISOString();
    record.payer_msisdn = payerMsisdn;
    return { ok: true, code: record };
  }

  finish(
    code: string,
    outcome: { status: "unusable"; reason: string } | { status: "expired" },
  ): PaymentCodeWire | undefined {
    const record = this.read(code);
    if (record === undefined || record.status !== "pending") {
      return record;
    }
    record.status = outcome.status;
    record.reason = outcome.status === "unusable" ? outcome.reason : null;
    return record;
  }

  injectFault(fault: { operation: Operation | "*"; mode: FaultMode; count: number }): void {
    this.faults.push({ operation: fault.operation, mode: fault.mode, remaining: fault.count });
  }

  /** Takes one injected fault for this operation, if any is left. */
  takeFault(operation: Operation): FaultMode | undefined {
    const fault = this.faults.find(
      (candidate) => candidate.remaining > 0 && (candidate.operation === "*" || candidate.operation === operation),
    );
    if (fault === undefined) {
      return undefined;
    }
    fault.remaining -= 1;
    this.faults = this.faults.filter((candidate) => candidate.remaining > 0);
    return fault.mode;
  }
}

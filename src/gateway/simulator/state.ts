import { randomInt } from "node:crypto";
import type { Currency } from "../../kernel/money.ts";
import { holderNameOf, utilityReceiptOf, walletAccountNumberOf } from "../network-data.ts";
import type {
  AccountWire,
  IssuePaymentCodeWireRequest,
  IssueWithdrawalCodeWireRequest,
  PaymentCodeWire,
  PayoutWire,
  SubmitPayoutWireRequest,
  UtilityPaymentWire,
  UtilityPaymentWireRequest,
  WalletTransferWire,
  WalletTransferWireRequest,
  WithdrawalCodeWire,
} from "../protocol.ts";

/**
 * The simulator's memory: wallets, payment and withdrawal codes, payouts, wallet transfers and utility
 * payments. A code past its expiry reads as expired; a code is paid (or a withdrawal claimed) by
 * debiting a wallet; a payout settles `payoutSettleMs` after it was accepted and credits its
 * destination, as in the real network.
 *
 * The sandbox's levers hold here too: a destination (payout wallet, transfer number, utility account)
 * ending 0000 is rejected, and the first submission of one ending 0096 fails with 503.
 */
export type FaultMode = "unavailable" | "code_generation_failed" | "timeout";
export const operations = [
  "issue_payment_code",
  "inquire_payment_code",
  "void_payment_code",
  "submit_payout",
  "inquire_payout",
  "lookup_account",
  "issue_withdrawal_code",
  "inquire_withdrawal_code",
  "send_change_to_wallet",
  "inquire_change_to_wallet",
  "pay_utility",
  "inquire_utility_payment",
] as const;
export type Operation = (typeof operations)[number];

export const REJECTED_ENDING = "0000";
export const TRANSIENT_FAULT_ENDING = "0096";

type SimulatedPayout = PayoutWire & { submissions: number };

export class SimulatorState {
  readonly codes = new Map<string, PaymentCodeWire>();
  private readonly codeByPayment = new Map<string, string>();
  readonly withdrawalCodes = new Map<string, WithdrawalCodeWire>();
  private readonly codeByWithdrawal = new Map<string, string>();
  readonly wallets = new Map<string, Map<Currency, number>>();
  readonly walletNames = new Map<string, string>();
  readonly payouts = new Map<string, SimulatedPayout>();
  readonly transfers = new Map<string, WalletTransferWire & { submissions: number }>();
  readonly utilityPayments = new Map<string, UtilityPaymentWire & { submissions: number }>();
  /** Submissions (by id) that already took their one transient fault. */
  private readonly faultedOnce = new Set<string>();
  private faults: { operation: Operation | "*"; mode: FaultMode; remaining: number }[] = [];
  private issued = 0;

  private readonly payoutSettleMs: number;

  constructor(options: { payoutSettleMs: number } = { payoutSettleMs: 20_000 }) {
    this.payoutSettleMs = options.payoutSettleMs;
  }

  private nextReference(): string {
    this.issued += 1;
    return `SIM${String(this.issued).padStart(8, "0")}`;
  }

  /** A nine-digit code not used by any pending payment or withdrawal code. */
  private freshCode(): string {
    let code: string;
    do {
      code = String(randomInt(0, 1_000_000_000)).padStart(9, "0");
    } while (this.codes.get(code)?.status === "pending" || this.withdrawalCodes.get(code)?.status === "pending");
    return code;
  }

  issue(request: IssuePaymentCodeWireRequest): { code: PaymentCodeWire; created: boolean } {
    const existing = this.codeByPayment.get(request.payment_id);
    if (existing !== undefined) {
      return { code: this.read(existing) as PaymentCodeWire, created: false };
    }
    const code = this.freshCode();
    const record: PaymentCodeWire = {
      code,
      payment_id: request.payment_id,
      reference: this.nextReference(),
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

  /** Credits (or debits) a wallet, registering it (with a name) when new. */
  fund(msisdn: string, currency: Currency, amountCents: number, name?: string): number {
    const wallet = this.wallets.get(msisdn) ?? new Map<Currency, number>();
    wallet.set(currency, (wallet.get(currency) ?? 0) + amountCents);
    this.wallets.set(msisdn, wallet);
    if (name !== undefined || !this.walletNames.has(msisdn)) {
      this.walletNames.set(msisdn, name ?? holderNameOf(msisdn));
    }
    return wallet.get(currency) ?? 0;
  }

  private debitWallet(msisdn: string, currency: Currency, amountCents: number): boolean {
    const balance = this.wallets.get(msisdn)?.get(currency) ?? 0;
    if (balance < amountCents) {
      return false;
    }
    this.fund(msisdn, currency, -amountCents);
    return true;
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
    if (!this.debitWallet(payerMsisdn, record.currency, record.amount_cents)) {
      return { ok: false, reason: "insufficient funds in the payer's wallet" };
    }
    record.status = "paid";
    record.paid_at = new Date().toISOString();
    record.payer_msisdn = payerMsisdn;
    return { ok: true, code: record };
  }

  finish(
    code: string,
    outcome: { status: "unusable"; reason: string } | { status: "expired" } | { status: "voided" },
  ): PaymentCodeWire | undefined {
    const record = this.read(code);
    if (record === undefined || record.status !== "pending") {
      return record;
    }
    record.status = outcome.status;
    record.reason = outcome.status === "unusable" ? outcome.reason : null;
    return record;
  }

  /** Whether this submission takes the 0096 lever's one transient fault (its first attempt). */
  takeTransientFault(id: string, destination: string): boolean {
    if (!destination.endsWith(TRANSIENT_FAULT_ENDING) || this.faultedOnce.has(id)) {
      return false;
    }
    this.faultedOnce.add(id);
    return true;
  }

  // Payouts.

  submitPayout(request: SubmitPayoutWireRequest): { payout: PayoutWire; created: boolean } {
    const existing = this.payouts.get(request.payout_id);
    if (existing !== undefined) {
      existing.submissions += 1;
      return { payout: this.readPayout(request.payout_id) as PayoutWire, created: false };
    }
    const payout: SimulatedPayout = {
      payout_id: request.payout_id,
      reference: this.nextReference(),
      status: "processing",
      amount_cents: request.amount_cents,
      currency: request.currency,
      destination_msisdn: request.destination_msisdn,
      destination_name: this.walletNames.get(request.destination_msisdn) ?? holderNameOf(request.destination_msisdn),
      accepted_at: new Date().toISOString(),
      completed_at: null,
      reason: null,
      submissions: 1,
    };
    this.payouts.set(payout.payout_id, payout);
    return { payout: this.readPayout(payout.payout_id) as PayoutWire, created: true };
  }

  /** The payout as it stands now: one past its settle time has completed (or been rejected). */
  readPayout(payoutId: string): PayoutWire | undefined {
    const payout = this.payouts.get(payoutId);
    if (
      payout !== undefined &&
      payout.status === "processing" &&
      Date.parse(payout.accepted_at) + this.payoutSettleMs <= Date.now()
    ) {
      if (payout.destination_msisdn.endsWith(REJECTED_ENDING)) {
        this.settlePayout(payoutId, { status: "rejected", reason: "the destination wallet is closed" });
      } else {
        this.settlePayout(payoutId, { status: "completed" });
      }
    }
    return payout === undefined ? undefined : wireOf(payout);
  }

  /** Settles a processing payout now: completed credits its destination wallet. */
  settlePayout(
    payoutId: string,
    outcome: { status: "completed" } | { status: "rejected"; reason: string },
  ): PayoutWire | undefined {
    const payout = this.payouts.get(payoutId);
    if (payout === undefined || payout.status !== "processing") {
      return payout === undefined ? undefined : wireOf(payout);
    }
    payout.status = outcome.status;
    if (outcome.status === "completed") {
      payout.completed_at = new Date().toISOString();
      this.fund(payout.destination_msisdn, payout.currency, payout.amount_cents);
    } else {
      payout.reason = outcome.reason;
    }
    return wireOf(payout);
  }

  // Account lookup.

  lookup(msisdn: string, currency: Currency): AccountWire | undefined {
    if (!this.wallets.has(msisdn) || msisdn.endsWith(REJECTED_ENDING)) {
      return undefined;
    }
    return {
      msisdn,
      name: this.walletNames.get(msisdn) ?? holderNameOf(msisdn),
      accounts: [{ account_number: walletAccountNumberOf(msisdn, currency), currency, type: "wallet" }],
    };
  }

  // Withdrawal codes.

  issueWithdrawal(request: IssueWithdrawalCodeWireRequest): { code: WithdrawalCodeWire; created: boolean } {
    const existing = this.codeByWithdrawal.get(request.withdrawal_id);
    if (existing !== undefined) {
      return { code: this.readWithdrawal(existing) as WithdrawalCodeWire, created: false };
    }
    const record: WithdrawalCodeWire = {
      code: this.freshCode(),
      withdrawal_id: request.withdrawal_id,
      reference: this.nextReference(),
      status: "pending",
      amount_cents: request.amount_cents,
      currency: request.currency,
      expires_at: request.expires_at,
      redeemed_at: null,
      customer_msisdn: null,
    };
    this.withdrawalCodes.set(record.code, record);
    this.codeByWithdrawal.set(request.withdrawal_id, record.code);
    return { code: record, created: true };
  }

  readWithdrawal(code: string): WithdrawalCodeWire | undefined {
    const record = this.withdrawalCodes.get(code);
    if (record !== undefined && record.status === "pending" && Date.parse(record.expires_at) <= Date.now()) {
      record.status = "expired";
    }
    return record;
  }

  /** A customer claims a withdrawal code: their wallet is debited, the agent hands over cash. */
  claimWithdrawal(
    code: string,
    customerMsisdn: string,
  ): { ok: true; code: WithdrawalCodeWire } | { ok: false; reason: string } {
    const record = this.readWithdrawal(code);
    if (record === undefined) {
      return { ok: false, reason: "no such code" };
    }
    if (record.status !== "pending") {
      return { ok: false, reason: `code is ${record.status}` };
    }
    if (!this.debitWallet(customerMsisdn, record.currency, record.amount_cents)) {
      return { ok: false, reason: "insufficient funds in the customer's wallet" };
    }
    record.status = "redeemed";
    record.redeemed_at = new Date().toISOString();
    record.customer_msisdn = customerMsisdn;
    return { ok: true, code: record };
  }

  lapseWithdrawal(code: string): WithdrawalCodeWire | undefined {
    const record = this.readWithdrawal(code);
    if (record !== undefined && record.status === "pending") {
      record.status = "expired";
    }
    return record;
  }

  // Change-to-wallet.

  transfer(request: WalletTransferWireRequest): { transfer: WalletTransferWire; created: boolean } {
    const existing = this.transfers.get(request.transfer_id);
    if (existing !== undefined) {
      existing.submissions += 1;
      return { transfer: stripSubmissions(existing), created: false };
    }
    const registered = this.wallets.has(request.destination_msisdn);
    const rejected = !registered || request.destination_msisdn.endsWith(REJECTED_ENDING);
    const transfer = {
      transfer_id: request.transfer_id,
      reference: rejected ? null : this.nextReference(),
      status: rejected ? "rejected" : "completed",
      amount_cents: request.amount_cents,
      currency: request.currency,
      destination_msisdn: request.destination_msisdn,
      recipient_name: rejected ? null : (this.walletNames.get(request.destination_msisdn) ?? null),
      completed_at: rejected ? null : new Date().toISOString(),
      reason: rejected ? "no wallet is registered for this number" : null,
      submissions: 1,
    } as const satisfies WalletTransferWire & { submissions: number };
    this.transfers.set(transfer.transfer_id, { ...transfer });
    if (!rejected) {
      this.fund(request.destination_msisdn, request.currency, request.amount_cents);
    }
    return { transfer: stripSubmissions(transfer), created: true };
  }

  // Utility payments.

  payUtility(request: UtilityPaymentWireRequest): { payment: UtilityPaymentWire; created: boolean } {
    const existing = this.utilityPayments.get(request.payment_id);
    if (existing !== undefined) {
      existing.submissions += 1;
      return { payment: stripSubmissions(existing), created: false };
    }
    const rejected = request.account.endsWith(REJECTED_ENDING);
    const receipt = utilityReceiptOf({
      paymentId: request.payment_id,
      provider: request.provider,
      product: request.product,
      amountCents: request.amount_cents,
      currency: request.currency,
      account: request.account,
      additionalData: request.additional_data,
    });
    const payment = {
      payment_id: request.payment_id,
      reference: rejected ? null : receipt.providerReference,
      status: rejected ? "rejected" : "completed",
      amount_cents: request.amount_cents,
      currency: request.currency,
      token: rejected ? null : receipt.token,
      receipt: rejected ? null : receipt.receipt,
      completed_at: rejected ? null : new Date().toISOString(),
      reason: rejected ? `${request.provider} has no account ${request.account}` : null,
      submissions: 1,
    } as const satisfies UtilityPaymentWire & { submissions: number };
    this.utilityPayments.set(payment.payment_id, { ...payment });
    return { payment: stripSubmissions(payment), created: true };
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

function wireOf(payout: SimulatedPayout): PayoutWire {
  const { submissions: _submissions, ...wire } = payout;
  return wire;
}

function stripSubmissions<T extends { submissions: number }>(record: T): Omit<T, "submissions"> {
  const { submissions: _submissions, ...wire } = record;
  return wire;
}

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { currencies } from "../../kernel/money.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";
import {
  issuePaymentCodeRequestSchema,
  issueWithdrawalCodeRequestSchema,
  submitPayoutRequestSchema,
  utilityPaymentRequestSchema,
  voidPaymentCodeRequestSchema,
  walletTransferRequestSchema,
} from "../protocol.ts";
import { type Operation, operations, SimulatorState } from "./state.ts";

/**
 * The gateway simulator: a stand-in for the wallet network that speaks exactly the protocol of our
 * HTTP gateway client (docs/gateway-protocol.md), plus `/sim/*` controls with which a test or a
 * person acts as a payer (pay, refuse, let lapse) or a cash-out customer (claim a withdrawal code),
 * settles payouts, funds wallets and injects faults. It is a separate
 * service simulating a third party, so it uses Express directly rather than the platform's HTTP layer.
 */

const fail = (response: Response, status: number, code: string, message: string) =>
  response.status(status).json({ error: { code, message } });

const payBody = z.object({ payer_msisdn: z.string().regex(/^263[0-9]{6,12}$/) });
const refuseBody = z.object({ reason: z.string().max(200).optional() });
const walletBody = z.object({
  msisdn: z.string().regex(/^263[0-9]{6,12}$/),
  currency: z.enum(currencies),
  amount_cents: z.number().int(),
  name: z.string().min(1).max(100).optional(),
});
const claimBody = z.object({ customer_msisdn: z.string().regex(/^263[0-9]{6,12}$/) });
const rejectBody = z.object({ reason: z.string().min(1).max(200).optional() });
const lookupQuery = z.object({ currency: z.enum(currencies).default("USD") });
const faultBody = z.object({
  operation: z.enum([...operations, "*"]),
  mode: z.enum(["unavailable", "code_generation_failed", "timeout"]),
  count: z.number().int().min(1).max(1000).default(1),
});

/**
 * The simulator's Express app. Longer than 70 lines on purpose: one route per operation of the
 * gateway protocol and per `/sim/*` control (short handlers each), over the one shared simulator state
 * and request counters; the file reads as the protocol's list of endpoints.
 */
export function createSimulatorApp(options: {
  apiKey: string;
  state: SimulatorState;
  requests: Map<Operation, number>;
}) {
  const { state, requests } = options;
  const app = express();
  app.use(express.json({ limit: "64kb" }));
  // Liveness and readiness: the simulator has no dependency to wait for.
  app.get(["/healthz", "/readyz"], (_request, response) => {
    response.json({ status: "ok" });
  });

  const authenticated = (request: Request, response: Response, next: NextFunction) => {
    if (request.get("authorization") !== `Bearer ${options.apiKey}`) {
      fail(response, 401, "unauthorized", "missing or wrong API key");
      return;
    }
    next();
  };
  /** Counts the call and applies an injected fault, if one is pending for this operation. */
  const faulted = (operation: Operation) => (request: Request, response: Response, next: NextFunction) => {
    requests.set(operation, (requests.get(operation) ?? 0) + 1);
    const fault = state.takeFault(operation);
    if (fault === "timeout") {
      // Never answers; the connection is dropped when the simulator stops.
      request.socket.setTimeout(0);
      return;
    }
    if (fault === "unavailable") {
      fail(response, 503, "unavailable", "injected fault: gateway unavailable");
      return;
    }
    if (
      fault === "code_generation_failed" &&
      (operation === "issue_payment_code" || operation === "issue_withdrawal_code")
    ) {
      fail(response, 422, "code_generation_failed", "injected fault: could not generate a code");
      return;
    }
    next();
  };

  app.post("/v1/payment-codes", authenticated, faulted("issue_payment_code"), (request, response) => {
    const parsed = issuePaymentCodeRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      fail(response, 400, "invalid_request", parsed.error.issues[0]?.message ?? "invalid request");
      return;
    }
    const { code, created } = state.issue(parsed.data);
    response.status(created ? 201 : 200).json(code);
  });
  app.post("/v1/payment-codes/:code/void", authenticated, faulted("void_payment_code"), (request, response) => {
    const parsed = body(voidPaymentCodeRequestSchema, request, response);
    if (parsed === undefined) return;
    const code = state.read(String(request.params.code));
    if (code === undefined || code.payment_id !== parsed.payment_id) {
      fail(response, 404, "not_found", "no such code for this payment");
      return;
    }
    response.json(state.finish(code.code, { status: "voided" }));
  });
  app.get("/v1/payment-codes/:code", authenticated, faulted("inquire_payment_code"), (request, response) => {
    const code = state.read(String(request.params.code));
    if (code === undefined) {
      fail(response, 404, "not_found", "no such code");
      return;
    }
    response.json(code);
  });

  /** Parses a protocol body, answering 400 `invalid_request` when it does not follow the protocol. */
  function body<S extends z.ZodType>(schema: S, request: Request, response: Response): z.output<S> | undefined {
    const parsed = schema.safeParse(request.body);
    if (!parsed.success) {
      fail(response, 400, "invalid_request", parsed.error.issues[0]?.message ?? "invalid request");
      return undefined;
    }
    return parsed.data;
  }
  const transientFault = (response: Response) =>
    fail(response, 503, "unavailable", "transient fault on the first submission (destination ending 0096)");

  app.post("/v1/payouts", authenticated, faulted("submit_payout"), (request, response) => {
    const parsed = body(submitPayoutRequestSchema, request, response);
    if (parsed === undefined) {
      return;
    }
    if (!state.payouts.has(parsed.payout_id) && state.takeTransientFault(parsed.payout_id, parsed.destination_msisdn)) {
      transientFault(response);
      return;
    }
    const { payout, created } = state.submitPayout(parsed);
    response.status(created ? 201 : 200).json(payout);
  });
  app.get("/v1/payouts/:payout_id", authenticated, faulted("inquire_payout"), (request, response) => {
    const payout = state.readPayout(String(request.params.payout_id));
    if (payout === undefined) {
      fail(response, 404, "not_found", "no such payout");
      return;
    }
    response.json(payout);
  });

  app.get("/v1/accounts/:msisdn", authenticated, faulted("lookup_account"), (request, response) => {
    const query = lookupQuery.safeParse(request.query);
    if (!query.success) {
      fail(response, 400, "invalid_request", "currency: USD or ZWG");
      return;
    }
    const account = state.lookup(String(request.params.msisdn), query.data.currency);
    if (account === undefined) {
      fail(response, 404, "not_found", "no wallet is registered for this number");
      return;
    }
    response.json(account);
  });

  app.post("/v1/withdrawal-codes", authenticated, faulted("issue_withdrawal_code"), (request, response) => {
    const parsed = body(issueWithdrawalCodeRequestSchema, request, response);
    if (parsed === undefined) {
      return;
    }
    const { code, created } = state.issueWithdrawal(parsed);
    response.status(created ? 201 : 200).json(code);
  });
  app.get("/v1/withdrawal-codes/:code", authenticated, faulted("inquire_withdrawal_code"), (request, response) => {
    const code = state.readWithdrawal(String(request.params.code));
    if (code === undefined) {
      fail(response, 404, "not_found", "no such code");
      return;
    }
    response.json(code);
  });

  app.post("/v1/wallet-transfers", authenticated, faulted("send_change_to_wallet"), (request, response) => {
    const parsed = body(walletTransferRequestSchema, request, response);
    if (parsed === undefined) {
      return;
    }
    if (
      !state.transfers.has(parsed.transfer_id) &&
      state.takeTransientFault(parsed.transfer_id, parsed.destination_msisdn)
    ) {
      transientFault(response);
      return;
    }
    const { transfer, created } = state.transfer(parsed);
    response.status(created ? 201 : 200).json(transfer);
  });
  app.get(
    "/v1/wallet-transfers/:transfer_id",
    authenticated,
    faulted("inquire_change_to_wallet"),
    (request, response) => {
      const transfer = state.transfers.get(String(request.params.transfer_id));
      if (transfer === undefined) {
        fail(response, 404, "not_found", "no such transfer");
        return;
      }
      const { submissions: _submissions, ...wire } = transfer;
      response.json(wire);
    },
  );

  app.post("/v1/utility-payments", authenticated, faulted("pay_utility"), (request, response) => {
    const parsed = body(utilityPaymentRequestSchema, request, response);
    if (parsed === undefined) {
      return;
    }
    if (!state.utilityPayments.has(parsed.payment_id) && state.takeTransientFault(parsed.payment_id, parsed.account)) {
      transientFault(response);
      return;
    }
    const { payment, created } = state.payUtility(parsed);
    response.status(created ? 201 : 200).json(payment);
  });
  app.get(
    "/v1/utility-payments/:payment_id",
    authenticated,
    faulted("inquire_utility_payment"),
    (request, response) => {
      const payment = state.utilityPayments.get(String(request.params.payment_id));
      if (payment === undefined) {
        fail(response, 404, "not_found", "no such utility payment");
        return;
      }
      const { submissions: _submissions, ...wire } = payment;
      response.json(wire);
    },
  );

  // Controls: what payers, customers and people do on the network's side.
  app.get("/sim/payouts", (_request, response) => {
    response.json({
      data: [...state.payouts.keys()].map((id) => ({
        ...state.readPayout(id),
        submissions: state.payouts.get(id)?.submissions,
      })),
    });
  });
  app.post("/sim/payouts/:payout_id/complete", (request, response) => {
    const payout = state.settlePayout(String(request.params.payout_id), { status: "completed" });
    if (payout === undefined) {
      fail(response, 404, "not_found", "no such payout");
      return;
    }
    response.json(payout);
  });
  app.post("/sim/payouts/:payout_id/reject", (request, response) => {
    const reason = rejectBody.safeParse(request.body ?? {}).data?.reason ?? "rejected by the network";
    const payout = state.settlePayout(String(request.params.payout_id), { status: "rejected", reason });
    if (payout === undefined) {
      fail(response, 404, "not_found", "no such payout");
      return;
    }
    response.json(payout);
  });
  app.get("/sim/withdrawal-codes", (_request, response) => {
    response.json({ data: [...state.withdrawalCodes.keys()].map((code) => state.readWithdrawal(code)) });
  });
  app.post("/sim/withdrawal-codes/:code/claim", (request, response) => {
    const parsed = claimBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      fail(response, 400, "invalid_request", "customer_msisdn: 263 followed by digits");
      return;
    }
    const result = state.claimWithdrawal(String(request.params.code), parsed.data.customer_msisdn);
    if (!result.ok) {
      fail(response, 409, "invalid_request", result.reason);
      return;
    }
    response.json(result.code);
  });
  app.post("/sim/withdrawal-codes/:code/lapse", (request, response) => {
    const code = state.lapseWithdrawal(String(request.params.code));
    if (code === undefined) {
      fail(response, 404, "not_found", "no such code");
      return;
    }
    response.json(code);
  });
  app.get("/sim/wallet-transfers", (_request, response) => {
    response.json({ data: [...state.transfers.values()] });
  });
  app.get("/sim/utility-payments", (_request, response) => {
    response.json({ data: [...state.utilityPayments.values()] });
  });

  app.get("/sim/payment-codes", (_request, response) => {
    response.json({ data: [...state.codes.keys()].map((code) => state.read(code)) });
  });
  app.post("/sim/payment-codes/:code/pay", (request, response) => {
    const parsed = payBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      fail(response, 400, "invalid_request", "payer_msisdn: 263 followed by digits");
      return;
    }
    const result = state.pay(String(request.params.code), parsed.data.payer_msisdn);
    if (!result.ok) {
      fail(response, 409, "invalid_request", result.reason);
      return;
    }
    response.json(result.code);
  });
  app.post("/sim/payment-codes/:code/refuse", (request, response) => {
    const reason = refuseBody.safeParse(request.body ?? {}).data?.reason ?? "refused by the network";
    const code = state.finish(String(request.params.code), { status: "unusable", reason });
    if (code === undefined) {
      fail(response, 404, "not_found", "no such code");
      return;
    }
    response.json(code);
  });
  app.post("/sim/payment-codes/:code/lapse", (request, response) => {
    const code = state.finish(String(request.params.code), { status: "expired" });
    if (code === undefined) {
      fail(response, 404, "not_found", "no such code");
      return;
    }
    response.json(code);
  });
  app.post("/sim/wallets", (request, response) => {
    const parsed = walletBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      fail(response, 400, "invalid_request", "msisdn, currency and amount_cents are required");
      return;
    }
    const balance = state.fund(parsed.data.msisdn, parsed.data.currency, parsed.data.amount_cents, parsed.data.name);
    response.json({
      msisdn: parsed.data.msisdn,
      name: state.walletNames.get(parsed.data.msisdn),
      currency: parsed.data.currency,
      balance_cents: balance,
    });
  });
  app.post("/sim/faults", (request, response) => {
    const parsed = faultBody.safeParse(request.body ?? {});
    if (!parsed.success) {
      fail(response, 400, "invalid_request", "operation, mode and count");
      return;
    }
    state.injectFault(parsed.data);
    response.status(201).json(parsed.data);
  });
  return app;
}

export type GatewaySimulator = {
  url: string;
  state: SimulatorState;
  /** Calls received per protocol operation (faulted ones included). */
  requests: Map<Operation, number>;
  stop: () => Promise<void>;
};

/** Starts the simulator on `port` (0: any free port) of `host`. */
export async function startGatewaySimulator(options: {
  port: number;
  host?: string;
  apiKey: string;
  logger: Logger;
  /** How long after acceptance a payout settles (20 s by default, as the sandbox). */
  payoutSettleMs?: number;
}): Promise<GatewaySimulator> {
  const state = new SimulatorState({ payoutSettleMs: options.payoutSettleMs ?? 20_000 });
  const requests = new Map<Operation, number>();
  const app = createSimulatorApp({ apiKey: options.apiKey, state, requests });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(options.port, options.host ?? "127.0.0.1", () => resolve(listening));
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  options.logger.info({ url }, "gateway simulator listening");
  return {
    url,
    state,
    requests,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { currencies } from "../../platform/http/validation.ts";
import type { Logger } from "../../platform/telemetry/logger.ts";
import { issuePaymentCodeRequestSchema } from "../protocol.ts";
import { type Operation, SimulatorState } from "./state.ts";

/**
 * The gateway simulator: a stand-in for the wallet network that speaks exactly the protocol of our
 * HTTP gateway client (docs/gateway-protocol.md), plus `/sim/*` controls with which a test or a
 * person acts as a payer (pay, refuse, let lapse), funds wallets and injects faults. It is a separate
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
});
const faultBody = z.object({
  operation: z.enum(["issue_payment_code", "inquire_payment_code", "*"]),
  mode: z.enum(["unavailable", "code_generation_failed", "timeout"]),
  count: z.number().int().min(1).max(1000).default(1),
});

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
    if (fault === "code_generation_failed" && operation === "issue_payment_code") {
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
  app.get("/v1/payment-codes/:code", authenticated, faulted("inquire_payment_code"), (request, response) => {
    const code = state.read(String(request.params.code));
    if (code === undefined) {
      fail(response, 404, "not_found", "no such code");
      return;
    }
    response.json(code);
  });

  // Controls: what payers and people do on the network's side.
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
    const balance = state.fund(parsed.data.msisdn, parsed.data.currency, parsed.data.amount_cents);
    response.json({ msisdn: parsed.data.msisdn, currency: parsed.data.currency, balance_cents: balance });
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
}): Promise<GatewaySimulator> {
  const state = new SimulatorState();
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

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sampleValue } from "../../tests/support/metrics.ts";
import { createLogger } from "../platform/telemetry/logger.ts";
import { createHttpGateway } from "./http-client.ts";
import { type GatewaySimulator, startGatewaySimulator } from "./simulator/app.ts";
import { CodeGenerationError, GatewayUnavailableError, type WalletGateway } from "./wallet-gateway.ts";

const API_KEY = "gwsim_test_key";
let simulator: GatewaySimulator;
let gateway: WalletGateway;

beforeAll(async () => {
  simulator = await startGatewaySimulator({
    port: 0,
    apiKey: API_KEY,
    logger: createLogger({ level: "silent", service: "test" }),
  });
  // A deadline no answer of the in-process simulator comes near, however loaded the machine.
  gateway = createHttpGateway({ baseUrl: simulator.url, apiKey: API_KEY, timeoutMs: 10_000, retries: 2 });
});
afterAll(() => simulator.stop());

let sequence = 0;
function request(overrides: { amountCents?: number; expiresInMs?: number } = {}) {
  sequence += 1;
  return {
    paymentId: `pay_test_${sequence}_${Date.now()}`,
    amountCents: overrides.amountCents ?? 1500,
    currency: "USD" as const,
    merchantName: "Corner Shop",
    narration: null,
    expiresAt: new Date(Date.now() + (overrides.expiresInMs ?? 600_000)),
  };
}
const inquiry = (issued: { code: string }, paymentId: string) => ({
  paymentId,
  code: issued.code,
  amountCents: 1500,
  issuedAt: new Date(),
});

async function simulate(path: string, body: unknown = {}) {
  const response = await fetch(`${simulator.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("a code is issued pending, paid by a payer from their wallet, then reads paid with the payer", async () => {
  const issue = request();
  const issued = await gateway.issuePaymentCode(issue);
  expect(issued.code).toMatch(/^[0-9]{9}$/);
  expect(await gateway.inquirePaymentCode(inquiry(issued, issue.paymentId))).toEqual({ state: "pending" });
  // Without funds the payer cannot pay.
  expect((await simulate(`/sim/payment-codes/${issued.code}/pay`, { payer_msisdn: "263771000001" })).status).toBe(409);
  await simulate("/sim/wallets", { msisdn: "263771000001", currency: "USD", amount_cents: 2000 });
  expect((await simulate(`/sim/payment-codes/${issued.code}/pay`, { payer_msisdn: "263771000001" })).status).toBe(200);
  const status = await gateway.inquirePaymentCode(inquiry(issued, issue.paymentId));
  expect(status).toMatchObject({ state: "paid", payerMsisdn: "263771000001" });
  expect(simulator.state.wallets.get("263771000001")?.get("USD")).toBe(500);
  // A paid code cannot be paid twice.
  expect((await simulate(`/sim/payment-codes/${issued.code}/pay`, { payer_msisdn: "263771000001" })).status).toBe(409);
});

test("refused codes read unusable; lapsed and overdue codes read expired", async () => {
  const refusedRequest = request();
  const refused = await gateway.issuePaymentCode(refusedRequest);
  await simulate(`/sim/payment-codes/${refused.code}/refuse`, { reason: "blocked" });
  expect(await gateway.inquirePaymentCode(inquiry(refused, refusedRequest.paymentId))).toEqual({
    state: "unusable",
    reason: "blocked",
  });
  const lapsedRequest = request();
  const lapsed = await gateway.issuePaymentCode(lapsedRequest);
  await simulate(`/sim/payment-codes/${lapsed.code}/lapse`);
  expect(await gateway.inquirePaymentCode(inquiry(lapsed, lapsedRequest.paymentId))).toEqual({ state: "expired" });
  const overdueRequest = request({ expiresInMs: 50 });
  const overdue = await gateway.issuePaymentCode(overdueRequest);
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(await gateway.inquirePaymentCode(inquiry(overdue, overdueRequest.paymentId))).toEqual({ state: "expired" });
});

test("issuing is idempotent per payment id, also under 10 concurrent calls; codes are unique", async () => {
  const issue = request();
  const codes = await Promise.all(Array.from({ length: 10 }, () => gateway.issuePaymentCode(issue)));
  expect(new Set(codes.map((code) => code.code)).size).toBe(1);
  const many = await Promise.all(Array.from({ length: 50 }, () => gateway.issuePaymentCode(request())));
  expect(new Set(many.map((code) => code.code)).size).toBe(50);
});

test("faults: unavailable is retried a bounded number of times, then reported; code generation failure is not retried", async () => {
  const before = simulator.requests.get("issue_payment_code") ?? 0;
  await simulate("/sim/faults", { operation: "issue_payment_code", mode: "unavailable", count: 2 });
  // Two failures, then the third call (second retry) succeeds.
  expect((await gateway.issuePaymentCode(request())).code).toMatch(/^[0-9]{9}$/);
  expect((simulator.requests.get("issue_payment_code") ?? 0) - before).toBe(3);

  await simulate("/sim/faults", { operation: "issue_payment_code", mode: "unavailable", count: 5 });
  const middle = simulator.requests.get("issue_payment_code") ?? 0;
  await expect(gateway.issuePaymentCode(request())).rejects.toBeInstanceOf(GatewayUnavailableError);
  expect((simulator.requests.get("issue_payment_code") ?? 0) - middle).toBe(3);
  // The two faults left are used up by the next call, which then succeeds on its third attempt.
  await gateway.issuePaymentCode(request());

  await simulate("/sim/faults", { operation: "issue_payment_code", mode: "code_generation_failed", count: 1 });
  const last = simulator.requests.get("issue_payment_code") ?? 0;
  await expect(gateway.issuePaymentCode(request())).rejects.toBeInstanceOf(CodeGenerationError);
  expect((simulator.requests.get("issue_payment_code") ?? 0) - last).toBe(1);
});

test("a gateway that does not answer is abandoned at the deadline of each attempt", async () => {
  await simulate("/sim/faults", { operation: "inquire_payment_code", mode: "timeout", count: 3 });
  const issue = request();
  const issued = await gateway.issuePaymentCode(issue);
  const impatient = createHttpGateway({ baseUrl: simulator.url, apiKey: API_KEY, timeoutMs: 500, retries: 2 });
  const started = Date.now();
  await expect(impatient.inquirePaymentCode(inquiry(issued, issue.paymentId))).rejects.toBeInstanceOf(
    GatewayUnavailableError,
  );
  const elapsed = Date.now() - started;
  // Three attempts of 500 ms plus backoff (100 + 200 ms): at least the deadlines, and nothing like a
  // hang (forever) or a longer deadline (three of them would pass 10 s).
  expect(elapsed).toBeGreaterThanOrEqual(1500);
  expect(elapsed).toBeLessThan(10_000);
});

test("a wrong API key is refused by the gateway and reported unavailable, without retries", async () => {
  const wrong = createHttpGateway({ baseUrl: simulator.url, apiKey: "wrong", timeoutMs: 500, retries: 2 });
  const before = simulator.requests.get("issue_payment_code") ?? 0;
  await expect(wrong.issuePaymentCode(request())).rejects.toThrow(/401/);
  // Refused before it counts as a protocol call.
  expect(simulator.requests.get("issue_payment_code") ?? 0).toBe(before);
});

test("an unreachable gateway is unavailable, and calls are timed by outcome", async () => {
  const before = await sampleValue("pos_gateway_call_duration_seconds", {
    operation: "issue_payment_code",
    outcome: "unavailable",
  });
  const nowhere = createHttpGateway({ baseUrl: "http://127.0.0.1:9", apiKey: API_KEY, timeoutMs: 300, retries: 1 });
  await expect(nowhere.issuePaymentCode(request())).rejects.toBeInstanceOf(GatewayUnavailableError);
  expect(
    await sampleValue("pos_gateway_call_duration_seconds", { operation: "issue_payment_code", outcome: "unavailable" }),
  ).toBe(before + 1);
});

describe("money out over the protocol", () => {
  test("a payout is executed once per payout id, however often it is submitted; unknown ones are not_found", async () => {
    const payoutId = `po_client_${Date.now()}`;
    const submission = {
      payoutId,
      amountCents: 700,
      currency: "USD" as const,
      destinationMsisdn: "263774000001",
      reference: "POCLIENT",
      narration: "Payout POCLIENT",
      attempt: 1,
    };
    const inquiry = {
      payoutId,
      amountCents: 700,
      destinationMsisdn: "263774000001",
      acceptedAt: null,
      attempts: 1,
      lastAttemptAt: null,
    };
    expect(await gateway.inquirePayout(inquiry)).toEqual({ state: "not_found" });
    const first = await gateway.submitPayout(submission);
    expect(first).toMatchObject({ state: "processing", gatewayReference: expect.stringMatching(/^SIM/) });
    expect(await gateway.submitPayout({ ...submission, attempt: 2 })).toMatchObject({
      gatewayReference: first.state === "rejected" ? null : first.gatewayReference,
    });
    expect(simulator.state.payouts.get(payoutId)?.submissions).toBe(2);
    await simulate(`/sim/payouts/${payoutId}/complete`);
    expect(await gateway.inquirePayout(inquiry)).toMatchObject({ state: "completed" });
    expect(simulator.state.wallets.get("263774000001")?.get("USD")).toBe(700);
  });

  test("lookup, withdrawal codes, change-to-wallet and utility payments; 404s are answers, nonsense is unavailable", async () => {
    await simulate("/sim/wallets", { msisdn: "263774000002", currency: "USD", amount_cents: 0, name: "Vimbai Gumbo" });
    expect(await gateway.lookupAccount({ msisdn: "263774000002", currency: "USD" })).toMatchObject({
      name: "Vimbai Gumbo",
      accounts: [{ currency: "USD", type: "wallet" }],
    });
    expect(await gateway.lookupAccount({ msisdn: "263774999999", currency: "USD" })).toBeNull();

    const withdrawalId = `wdc_client_${Date.now()}`;
    const issued = await gateway.issueWithdrawalCode({
      withdrawalId,
      amountCents: 300,
      currency: "USD",
      merchantName: "Corner Shop",
      expiresAt: new Date(Date.now() + 60_000),
    });
    const codeInquiry = { withdrawalId, code: issued.code, amountCents: 300, issuedAt: new Date() };
    expect(await gateway.inquireWithdrawalCode(codeInquiry)).toEqual({ state: "pending" });
    await simulate("/sim/wallets", { msisdn: "263774000003", currency: "USD", amount_cents: 300 });
    await simulate(`/sim/withdrawal-codes/${issued.code}/claim`, { customer_msisdn: "263774000003" });
    expect(await gateway.inquireWithdrawalCode(codeInquiry)).toMatchObject({
      state: "redeemed",
      customerMsisdn: "263774000003",
    });

    const transferId = `bch_client_${Date.now()}`;
    const attempts = { attempts: 1, lastAttemptAt: new Date() };
    expect(await gateway.inquireChangeToWallet({ transferId, destinationMsisdn: "263774000002", ...attempts })).toEqual(
      { state: "not_found" },
    );
    expect(
      await gateway.sendChangeToWallet({
        transferId,
        amountCents: 200,
        currency: "USD",
        destinationMsisdn: "263774000002",
        narration: null,
        attempt: 1,
      }),
    ).toMatchObject({ state: "completed", recipientName: "Vimbai Gumbo" });

    const paymentId = `utp_client_${Date.now()}`;
    const utility = {
      paymentId,
      provider: "zesa",
      product: "ZESA_PREPAID",
      amountCents: 1000,
      currency: "USD" as const,
      account: "37132640914",
      additionalData: {},
    };
    const paid = await gateway.payUtility({ ...utility, attempt: 1 });
    expect(paid).toMatchObject({ state: "completed", token: expect.stringMatching(/^[0-9]{20}$/) });
    expect(await gateway.inquireUtilityPayment({ ...utility, ...attempts })).toEqual(paid);

    await simulate("/sim/faults", { operation: "inquire_payout", mode: "unavailable", count: 3 });
    await expect(
      gateway.inquirePayout({
        payoutId: "po_x",
        amountCents: 1,
        destinationMsisdn: "263774000001",
        acceptedAt: null,
        attempts: 1,
        lastAttemptAt: null,
      }),
    ).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});

test("void: a pending code becomes voided (payers refused, inquiries unusable), again the same; a paid code answers paid", async () => {
  const issue = request();
  const issued = await gateway.issuePaymentCode(issue);
  const voiding = { ...inquiry(issued, issue.paymentId) };
  expect(await gateway.voidPaymentCode(voiding)).toEqual({ state: "voided" });
  expect(await gateway.voidPaymentCode(voiding)).toEqual({ state: "voided" });
  await simulate("/sim/wallets", { msisdn: "263771000077", currency: "USD", amount_cents: 5000 });
  expect((await simulate(`/sim/payment-codes/${issued.code}/pay`, { payer_msisdn: "263771000077" })).status).toBe(409);
  expect(await gateway.inquirePaymentCode(voiding)).toMatchObject({ state: "unusable" });
  // Asked for another payment's code: refused by the gateway, reported as unclear, never as voided.
  await expect(gateway.voidPaymentCode({ ...voiding, paymentId: "pay_someone_else" })).rejects.toThrow(
    GatewayUnavailableError,
  );
  const paidIssue = request();
  const paid = await gateway.issuePaymentCode(paidIssue);
  await simulate(`/sim/payment-codes/${paid.code}/pay`, { payer_msisdn: "263771000077" });
  expect(await gateway.voidPaymentCode(inquiry(paid, paidIssue.paymentId))).toMatchObject({
    state: "paid",
    payerMsisdn: "263771000077",
  });
});

test("void at a gateway that cannot void (501 not_supported): unsupported, not retried", async () => {
  let calls = 0;
  const server = createServer((_request, response) => {
    calls += 1;
    response.writeHead(501, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { code: "not_supported", message: "no voids here" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const unable = createHttpGateway({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: API_KEY,
      timeoutMs: 10_000,
      retries: 2,
    });
    expect(await unable.voidPaymentCode(inquiry({ code: "123456789" }, "pay_x"))).toEqual({ state: "unsupported" });
    expect(calls).toBe(1);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

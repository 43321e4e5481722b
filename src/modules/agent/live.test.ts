import { randomUUID } from "node:crypto";
import { agentTestWorld } from "../../../tests/support/agent.ts";
import { apiGet, apiPost, type TestApp } from "../../../tests/support/app.ts";
import { fund } from "../../../tests/support/factories.ts";
import { simulatedGateway } from "../../../tests/support/gateway-simulator.ts";
import { available, eventually } from "../../../tests/support/money.ts";
import { CLAIM_LIMIT, runClaimed, startPoolPump } from "../../../tests/support/pumps.ts";
import { createLogger } from "../../platform/telemetry/logger.ts";
import * as agent from "./index.ts";
import { expireDueWithdrawalCodesPump } from "./pumps/expire-due-withdrawal-codes.ts";
import { pollDueWithdrawalCodesPump } from "./pumps/poll-due-withdrawal-codes.ts";

/** The live agent operations through the gateway simulator (the network as a separate service). */

const logger = createLogger({ level: "silent", service: "test" });
const world = agentTestWorld();

describe("live agent operations, through the gateway simulator", () => {
  const gateway = simulatedGateway("gwsim_agent");

  const live = (environment: Record<string, string> = {}) =>
    world.setup({
      ...gateway.environment(),
      GATEWAY_TIMEOUT_MS: "5000",
      GATEWAY_RETRIES: "2",
      PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
      ...environment,
    });

  test("a customer claims the code in their wallet: learnt by inquiry, redeemed, live balance credited", async () => {
    const { app, dependencies } = live();
    const code = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.liveKey, { amount_cents: 3000 })).body;
    expect(code).toMatchObject({ livemode: true, status: "pending" });
    expect(gateway.simulator.state.readWithdrawal(code.code)?.withdrawal_id).toBe(code.id);
    expect((await apiPost(app, `/v1/agent/withdrawal_codes/${code.id}/claim`, world.shop.liveKey, {})).status).toBe(
      403,
    );
    await gateway.simulate("/sim/wallets", { msisdn: "263773000001", currency: "USD", amount_cents: 5000 });
    expect(
      (await gateway.simulate(`/sim/withdrawal-codes/${code.code}/claim`, { customer_msisdn: "263773000001" })).status,
    ).toBe(200);
    // The poller's claim learns it once its poll is due (a GET would too).
    await world.makePollDue(code.id);
    await runClaimed(await agent.claimDueWithdrawalPolls(dependencies, CLAIM_LIMIT));
    expect(
      await agent.getWithdrawal(world.db.database, { merchantId: world.shop.id, livemode: true }, code.id),
    ).toMatchObject({ status: "redeemed", customer_msisdn: "263773000001" });
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${code.id}`, world.shop.liveKey)).body.status).toBe(
      "redeemed",
    );
    expect(await available(world.db.database, world.shop.id, true)).toBe(3000);
    expect(await available(world.db.database, world.shop.id, false)).toBe(0);
    expect(gateway.simulator.state.wallets.get("263773000001")?.get("USD")).toBe(2000);
  });

  test("lapsed at the network: expired; claimed in its last second: redeemed by the expiry's last inquiry", async () => {
    // No poll before the window closes (the first would come after it): the expiry's inquiry is the only one.
    const { app, config, dependencies } = live({
      WITHDRAWAL_CODE_WINDOW_SECONDS: "60",
      PAYMENT_POLL_SCHEDULE_SECONDS: "3600",
      WORKER_POLL_INTERVAL_MS: "50",
    });
    const lapsed = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.liveKey, { amount_cents: 100 })).body;
    await gateway.simulate(`/sim/withdrawal-codes/${lapsed.code}/lapse`);
    expect((await apiGet(app, `/v1/agent/withdrawal_codes/${lapsed.id}`, world.shop.liveKey)).body.status).toBe(
      "expired",
    );

    const environment = { config, database: world.db.database, databaseUrl: world.db.url, logger };
    const pumps = [
      startPoolPump("code-expiry", expireDueWithdrawalCodesPump(dependencies.gateways), environment),
      startPoolPump("gateway-poller", pollDueWithdrawalCodesPump(dependencies.gateways), environment),
    ];
    try {
      const lastSecond = (await apiPost(app, "/v1/agent/withdrawal_codes", world.shop.liveKey, { amount_cents: 400 }))
        .body;
      await gateway.simulate("/sim/wallets", { msisdn: "263773000002", currency: "USD", amount_cents: 400 });
      // Claimed while the network's window is open; then ours closes and the code-expiry's pump
      // finds it due (it looks at least once a second).
      expect(
        (await gateway.simulate(`/sim/withdrawal-codes/${lastSecond.code}/claim`, { customer_msisdn: "263773000002" }))
          .status,
      ).toBe(200);
      expect(
        (await agent.getWithdrawal(world.db.database, { merchantId: world.shop.id, livemode: true }, lastSecond.id))
          .status,
      ).toBe("pending");
      await world.closeWindow(lastSecond.id);
      await eventually(
        async () =>
          (await agent.getWithdrawal(world.db.database, { merchantId: world.shop.id, livemode: true }, lastSecond.id))
            .status === "redeemed",
      );
      expect(await available(world.db.database, world.shop.id, true)).toBe(400);
    } finally {
      await Promise.all(pumps.map((pump) => pump.stop()));
    }
  });

  test("change-to-wallet credits the customer's wallet once; an unregistered number is refused", async () => {
    const { app } = live();
    await fund(world.db.database, world.shop, 1000, true);
    await gateway.simulate("/sim/wallets", {
      msisdn: "263773000003",
      currency: "USD",
      amount_cents: 0,
      name: "Rudo Moyo",
    });
    const key = randomUUID();
    const sent = await change(app, { amount_cents: 450, destination_msisdn: "263773000003" }, key);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ livemode: true, status: "completed", recipient_name: "Rudo Moyo" });
    expect((await change(app, { amount_cents: 450, destination_msisdn: "263773000003" }, key)).body.id).toBe(
      sent.body.id,
    );
    expect(gateway.simulator.state.wallets.get("263773000003")?.get("USD")).toBe(450);
    expect(await available(world.db.database, world.shop.id, true)).toBe(550);
    const refused = await change(app, { amount_cents: 100, destination_msisdn: "263773999999" });
    expect(refused.body.error.code).toBe("bank_change_failed");
    expect(await available(world.db.database, world.shop.id, true)).toBe(550);

    function change(app: TestApp, body: unknown, idempotencyKey?: string) {
      return apiPost(app, "/v1/agent/bank_changes", world.shop.liveKey, body, idempotencyKey);
    }
  });

  test("account lookup answers from the network's wallets", async () => {
    const { app } = live();
    await gateway.simulate("/sim/wallets", {
      msisdn: "263773000004",
      currency: "USD",
      amount_cents: 0,
      name: "Chipo Ncube",
    });
    const found = await apiGet(app, "/v1/account/lookup?msisdn=263773000004", world.shop.liveKey);
    expect(found.body).toMatchObject({ livemode: true, name: "Chipo Ncube", accounts: [{ currency: "USD" }] });
    expect((await apiGet(app, "/v1/account/lookup?msisdn=263773999998", world.shop.liveKey)).body.error.code).toBe(
      "account_not_found",
    );
  });
});

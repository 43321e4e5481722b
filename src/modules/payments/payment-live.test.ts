import request from "supertest";
import { z } from "zod";
import type { testApp } from "../../../tests/support/app.ts";
import { simulatedGateway } from "../../../tests/support/gateway-simulator.ts";
import { paymentsTestWorld } from "../../../tests/support/payments.ts";
import { sql } from "../../platform/db/pool.ts";
import * as payments from "./service.ts";

/** Live-world payments through the gateway simulator (the network as a separate service). */

const world = paymentsTestWorld();
const countSchema = z.object({ count: z.number() });

describe("payment states (live world, through the gateway simulator)", () => {
  const gateway = simulatedGateway("gwsim_live_test");

  const live = (environment: Record<string, string> = {}) =>
    world.setup({
      ...gateway.environment(),
      // Generous: the simulator shares this process, and a loaded CI machine must not time it out.
      GATEWAY_TIMEOUT_MS: "10000",
      PAYMENT_INQUIRY_MIN_INTERVAL_SECONDS: "0.01",
      ...environment,
    });
  const get = (app: ReturnType<typeof testApp>, id: string) =>
    request(app).get(`/v1/payments/${id}`).set("Authorization", `Bearer ${world.shop.liveKey}`);

  test("the payer pays the code: paid, live balance credited net, payment.paid", async () => {
    const { app } = live();
    const payment = (await world.create(app, world.shop.liveKey, { amount_cents: 2000 })).body;
    expect(payment).toMatchObject({ livemode: true, status: "pending" });
    expect(gateway.simulator.state.read(payment.code)?.payment_id).toBe(payment.id);
    expect((await get(app, payment.id)).body.status).toBe("pending");
    await gateway.simulate("/sim/wallets", { msisdn: "263772000002", currency: "USD", amount_cents: 5000 });
    expect(
      (await gateway.simulate(`/sim/payment-codes/${payment.code}/pay`, { payer_msisdn: "263772000002" })).status,
    ).toBe(200);
    // The inquiry throttle (10 ms here) counts from the first GET's inquiry: moved into the past rather
    // than counting on the machine taking longer than that between the two reads (a fast run did not).
    await world.db.database.query(sql.unsafe`
      UPDATE payments SET last_inquiry_at = now() - interval '1 minute' WHERE id = ${payment.id}`);
    const paid = await get(app, payment.id);
    expect(paid.body.status).toBe("paid");
    expect(await world.balanceOf(world.shop.id, true)).toEqual({ USD: 1970 });
    expect(await world.balanceOf(world.shop.id, false)).toEqual({});
    expect((await world.eventsOf(payment.id)).map((event) => event.type)).toEqual(["payment.paid"]);
  });

  test("the network refuses the code: failed with payment.failed; a lapsed code: expired", async () => {
    const { app } = live();
    const refused = (await world.create(app, world.shop.liveKey, { amount_cents: 300 })).body;
    await gateway.simulate(`/sim/payment-codes/${refused.code}/refuse`, { reason: "blocked by the network" });
    expect((await get(app, refused.id)).body).toMatchObject({
      status: "failed",
      failure_reason: "blocked by the network",
    });
    const lapsed = (await world.create(app, world.shop.liveKey, { amount_cents: 300 })).body;
    await gateway.simulate(`/sim/payment-codes/${lapsed.code}/lapse`);
    expect((await get(app, lapsed.id)).body.status).toBe("expired");
    expect((await world.eventsOf(lapsed.id)).map((event) => event.type)).toEqual(["payment.expired"]);
  });

  test("the window closes unpaid: the expiry job expires it; paid at the last moment: paid", async () => {
    const { app, dependencies } = live({ PAYMENT_CODE_WINDOW_SECONDS: "60" });
    const unpaid = (await world.create(app, world.shop.liveKey, { amount_cents: 300 })).body;
    const lastSecond = (await world.create(app, world.shop.liveKey, { amount_cents: 300 })).body;
    await gateway.simulate("/sim/wallets", { msisdn: "263772000003", currency: "USD", amount_cents: 300 });
    // Paid while the gateway's window is open, and no inquiry happens until the expiry job's.
    const paying = await gateway.simulate(`/sim/payment-codes/${lastSecond.code}/pay`, {
      payer_msisdn: "263772000003",
    });
    expect(paying.status).toBe(200);
    // Then our window closes for both (the gateway's closes later): the expiry job's last inquiry decides.
    await world.backdate(unpaid.id, 60.1);
    await world.backdate(lastSecond.id, 60.1);
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: unpaid.id }))?.status).toBe("expired");
    expect((await payments.expireIfUnpaid(dependencies, { paymentId: lastSecond.id }))?.status).toBe("paid");
  });

  test("gateway faults on creation: 502 gateway_error or code_generation_failed, nothing created", async () => {
    const { app } = live({ GATEWAY_RETRIES: "0" });
    await gateway.simulate("/sim/faults", { operation: "issue_payment_code", mode: "unavailable", count: 1 });
    const unavailable = await world.create(app, world.shop.liveKey, { amount_cents: 300 });
    expect(unavailable.status).toBe(502);
    expect(unavailable.body.error.code).toBe("gateway_error");
    await gateway.simulate("/sim/faults", {
      operation: "issue_payment_code",
      mode: "code_generation_failed",
      count: 1,
    });
    const failed = await world.create(app, world.shop.liveKey, { amount_cents: 300 });
    expect(failed.body.error.code).toBe("code_generation_failed");
    expect(
      await world.db.database.oneFirst(sql.type(countSchema)`
      SELECT count(*)::int AS count FROM payments WHERE merchant_id = ${world.shop.id}`),
    ).toBe(0);
  });

  test("an unreachable gateway during a GET leaves the payment pending, without an error", async () => {
    const { app } = live();
    const payment = (await world.create(app, world.shop.liveKey, { amount_cents: 300 })).body;
    await gateway.simulate("/sim/faults", { operation: "inquire_payment_code", mode: "unavailable", count: 3 });
    const fetched = await get(app, payment.id);
    expect(fetched.status).toBe(200);
    expect(fetched.body.status).toBe("pending");
  });
});

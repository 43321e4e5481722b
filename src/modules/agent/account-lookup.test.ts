import { agentTestWorld } from "../../../tests/support/agent.ts";
import { apiGet, type TestApp } from "../../../tests/support/app.ts";
import { holderNameOf, walletAccountNumberOf } from "../../gateway/network-data.ts";

/** Account lookup: a wallet holder's name and account numbers. */

const world = agentTestWorld();

describe("account lookup", () => {
  const lookup = (app: TestApp, query: string, key = world.shop.testKey) =>
    apiGet(app, `/v1/account/lookup${query}`, key);

  test("the wallet holder's name and account numbers (sandbox)", async () => {
    const { app } = world.setup();
    const response = await lookup(app, "?msisdn=263771234567&currency=ZWG");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: "account_lookup",
      livemode: false,
      msisdn: "263771234567",
      currency: "ZWG",
      name: holderNameOf("263771234567"),
      accounts: [{ account_number: walletAccountNumberOf("263771234567", "ZWG"), currency: "ZWG", type: "wallet" }],
    });
    expect((await lookup(app, "?msisdn=263771234567")).body.currency).toBe("USD");
  });

  test.each([
    ["no msisdn", 400, "invalid_msisdn", ""],
    ["a number not starting 263", 400, "invalid_msisdn", "?msisdn=0771234567"],
    ["a bad currency", 400, "invalid_currency", "?msisdn=263771234567&currency=EUR"],
    ["an unknown parameter", 400, "parameter_unknown", "?msisdn=263771234567&name=x"],
    ["no such wallet (ending 0000)", 404, "account_not_found", "?msisdn=263771230000"],
  ])("%s → %i %s", async (_, status, code, query) => {
    const { app } = world.setup();
    const response = await lookup(app, query);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });

  test("live without a configured gateway: 502 gateway_error", async () => {
    const { app } = world.setup();
    const response = await lookup(app, "?msisdn=263771234567", world.shop.liveKey);
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe("gateway_error");
  });
});

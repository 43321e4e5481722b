/// <reference lib="dom" />

import { formatMoney } from "../../../src/kernel/money.ts";
import {
  addProduct,
  externalRequests,
  type OwnerCaller,
  ownerSession,
  startTillWorld,
  TillPage,
  type TillWorld,
} from "../../support/till.ts";
import { waitUntil } from "../../support/time.ts";
import { smallTouchTargets } from "../../support/touch-targets.ts";

/**
 * The till's Pay step for split and two-currency tender (issue 47 points 5 and 6; web/till/sell/pay-step.tsx)
 * against the API's tenders (POST /v1/sales with `tenders`, POST /v1/sales/:id/tenders, the cancel).
 */
let world: TillWorld;
let owner: OwnerCaller;

type SaleTender = {
  kind: string;
  currency: string;
  amount_cents: number;
  status: string;
  payment_id: string | null;
  exchange_rate_id: string | null;
  net_amount_cents: number;
};
type Sale = {
  id: string;
  status: string;
  tender: string;
  total_cents: number;
  tenders: SaleTender[];
  change: { currency: string; amount_cents: number } | null;
  paid_cents: number;
};

beforeAll(async () => {
  world = await startTillWorld();
  owner = await ownerSession(world);
  await addProduct(world, { name: "Cola 330ml", price_cents: 150, barcode: "5000112637922", stock_qty: 50 });
  // USD 1 = ZWG 26.7843, set by the owner from the dashboard.
  await owner("POST", "/v1/exchange_rates", { base: "USD", other: "ZWG", rate: "26.7843" });
});
afterAll(() => world?.close());

/** A till signed in with its drawer open and `colas` colas in the cart, the Pay step open. */
async function openPayStep(colas: number) {
  const till = await TillPage.open(world);
  await till.signIn(world.shop.email);
  await till.openDrawer({ USD: "50", ZWG: "1000" });
  for (let count = 0; count < colas; count += 1) await till.scan("5000112637922");
  await till.waitForCart([{ name: "Cola 330ml", qty: String(colas) }]);
  await till.page.getByRole("button", { name: "Split or ZWG" }).click();
  const dialog = till.page.getByRole("dialog", { name: "Split payment" });
  await dialog.getByText(/^Rate of the day: USD 1 = ZWG 26\.7843 · set \d\d:\d\d by the owner$/).waitFor();
  return { till, page: till.page, dialog };
}

test("the Pay step: the rate of the day and who set it, paid and due in both currencies, quick due amounts, change in either currency; keyboard and touch; axe clean", async () => {
  const { till, page, dialog } = await openPayStep(3);
  try {
    expect(await till.app.accessibilityViolations()).toEqual([]);
    expect(await smallTouchTargets(page)).toEqual([]);
    // Keyboard alone: the amount field has the focus; typed (as a person types) and Enter adds the tender.
    await page.waitForFunction(() => document.activeElement?.getAttribute("inputmode") === "decimal");
    await till.typeSlowly("2", { enter: true });
    await dialog.getByRole("list", { name: "Tenders to send" }).getByText("Cash USD 2.00").waitFor();
    expect(await dialog.getByTestId("tender-paid").textContent()).toBe("USD 2.00");
    // 2.50 × 26.7843 = 66.96…: asked rounded up, so paying it covers the basket.
    expect(await dialog.getByTestId("tender-due").textContent()).toBe("USD 2.50 · ZWG 66.97");
    const due = dialog.getByRole("group", { name: "Still due" });
    expect(await due.getByRole("button").allTextContents()).toEqual(["USD 2.50", "ZWG 66.97"]);
    await due.getByRole("button", { name: "ZWG 66.97" }).click();
    expect(await dialog.getByLabel("Amount (ZWG)").inputValue()).toBe("66.97");
    expect(
      await dialog
        .getByRole("group", { name: "Currency" })
        .getByRole("button", { name: "ZWG" })
        .getAttribute("aria-pressed"),
    ).toBe("true");

    // ZWG 100 counts USD 3.73 (rounded down): 1.23 over, given as USD 1.23 or ZWG 32.94 (rounded down).
    await till.addTender({ kind: "Cash", currency: "ZWG", amount: "100" });
    await dialog.getByText("Cash ZWG 100.00 (counts USD 3.73)").waitFor();
    // Nothing is due, so the form is gone: the focus goes to the step's main button, not the page (an
    // effect after the render moves it).
    await page.waitForFunction(() => document.activeElement?.textContent === "Complete sale", undefined, {
      timeout: 30_000,
    });
    expect(await dialog.getByTestId("tender-due").textContent()).toBe("USD 0.00 · ZWG 0.00");
    const change = dialog.getByRole("group", { name: "Give change in" });
    expect(await change.getByRole("button").allTextContents()).toEqual(["USD 1.23", "ZWG 32.94"]);
    await dialog.getByText("Change due USD 1.23").waitFor();
    await change.getByRole("button", { name: "ZWG 32.94" }).click();
    await dialog.getByText("Change due ZWG 32.94").waitFor();
    expect(await dialog.getByRole("button", { name: "Complete sale" }).isEnabled()).toBe(true);
    expect(await till.app.accessibilityViolations()).toEqual([]);

    // A wallet pays at most what is still due (only cash gives change): more is refused with the reason.
    await dialog.getByRole("button", { name: "Remove Cash ZWG 100.00" }).click();
    await till.addTender({ kind: "Wallet", currency: "USD", amount: "2.50" });
    expect(await dialog.getByRole("button", { name: "Get wallet code" }).isEnabled()).toBe(true);
    await dialog.getByRole("button", { name: "Remove Wallet USD 2.50" }).click();
    await till.addTender({ kind: "Wallet", currency: "USD", amount: "3.00" });
    await dialog.getByRole("alert").filter({ hasText: "A wallet pays at most what is still due." }).waitFor();
    expect(await dialog.getByRole("button", { name: "Get wallet code" }).isDisabled()).toBe(true);

    // Back: nothing was sent, the cart is as it was.
    await dialog.getByRole("button", { name: "Back" }).click();
    await dialog.waitFor({ state: "detached" });
    await till.waitForCart([{ name: "Cola 330ml", qty: "3" }]);
    expect(till.app.requests.filter((url) => url.endsWith("/v1/sales"))).toEqual([]);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

describe("split sales sent", () => {
  const sales = async () => (await world.api("test")<{ data: Sale[] }>("GET", "/v1/sales")).body.data;
  const saleById = async (id: string) => (await world.api("test")<Sale>("GET", `/v1/sales/${id}`)).body;

  test("USD basket paid in USD and ZWG cash, change in ZWG: completed at once, the tenders and change recorded", async () => {
    const { till, page, dialog } = await openPayStep(3);
    try {
      await till.addTender({ kind: "Cash", currency: "USD", amount: "2.00" });
      await till.addTender({ kind: "Cash", currency: "ZWG", amount: "100" });
      await dialog.getByRole("group", { name: "Give change in" }).getByRole("button", { name: "ZWG 32.94" }).click();
      await dialog.getByRole("button", { name: "Complete sale" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: "Sale complete: USD 4.50 by split · change due ZWG 32.94" })
        .waitFor();
      // Printed before the outbox has sent it: each tender, the ZWG one with its rate, and the change.
      const printed = await till.printedReceipt("Change");
      for (const text of [
        "Total USD 4.50",
        "Paid: Split",
        "Cash USD 2.00",
        "Cash ZWG 100.00 at 26.7843 = USD 3.73",
        "Change ZWG 32.94",
      ]) {
        expect(printed).toContain(text);
      }
      await till.waitForCart([]);
      await till.waitForSynced();
      const [sale] = await sales();
      expect(sale).toMatchObject({
        status: "completed",
        tender: "split",
        total_cents: 450,
        tenders: [
          { kind: "cash", currency: "USD", amount_cents: 200, status: "paid" },
          { kind: "cash", currency: "ZWG", amount_cents: 10_000, status: "paid" },
        ],
        change: { currency: "ZWG", amount_cents: 3294 },
      });
      expect(till.app.consoleErrors).toEqual([]);
    } finally {
      await till.close();
    }
  });

  test("offline: ZWG cash at the rate the till last read, kept in the outbox and sent once the network is back", async () => {
    // Opened online once: the till keeps the rates it read.
    const { till, page, dialog } = await openPayStep(1);
    const { context } = till.app;
    try {
      await dialog.getByRole("button", { name: "Back" }).click();
      await context.setOffline(true);
      await page.getByText("Offline", { exact: true }).waitFor();
      await page.getByRole("button", { name: "Split or ZWG" }).click();
      await dialog.getByText(/^Rate of the day: USD 1 = ZWG 26\.7843 · set \d\d:\d\d by the owner$/).waitFor();
      const kinds = dialog.getByRole("group", { name: "Tender" });
      expect(await kinds.getByRole("button", { name: "Wallet" }).isDisabled()).toBe(true);
      // 1.50 × 26.7843 = 40.176…: asked ZWG 40.18.
      await dialog.getByRole("group", { name: "Still due" }).getByRole("button", { name: "ZWG 40.18" }).click();
      await dialog.getByRole("button", { name: "Add tender" }).click();
      await dialog.getByRole("button", { name: "Complete sale" }).click();
      await page.getByRole("status").filter({ hasText: "Sale complete: USD 1.50 by split" }).waitFor();
      await page.getByRole("button", { name: "1 unsynced", exact: true }).waitFor();
      await context.setOffline(false);
      await till.waitForSynced();
      const rate = (await world.api("test")<{ data: { id: string }[] }>("GET", "/v1/exchange_rates/current")).body
        .data[0];
      const [sale] = await sales();
      expect(sale).toMatchObject({
        status: "completed",
        tender: "split",
        tenders: [{ kind: "cash", currency: "ZWG", amount_cents: 4018, exchange_rate_id: rate?.id, status: "paid" }],
      });
      expect(till.app.consoleErrors).toEqual([]);
    } finally {
      await till.close();
    }
  });

  test("cash and a wallet: the wallet code shows; it expires, the sale stays pending with the cash kept; another tender completes it", async () => {
    const { till, page, dialog } = await openPayStep(2);
    try {
      await till.addTender({ kind: "Cash", currency: "USD", amount: "1.00" });
      await dialog.getByRole("form", { name: "Add a tender" }).getByRole("button", { name: "Wallet" }).click();
      await dialog.getByRole("group", { name: "Still due" }).getByRole("button", { name: "USD 2.00" }).click();
      await dialog.getByRole("button", { name: "Add tender" }).click();
      await dialog.getByRole("button", { name: "Get wallet code" }).click();
      await dialog.getByTestId("payment-code").waitFor();
      await page
        .getByTestId("cart-held")
        .filter({ hasText: "Split sale waiting: paid USD 1.00 of USD 3.00" })
        .waitFor();
      expect(await till.app.accessibilityViolations()).toEqual([]);

      const pending = (await sales()).find((sale) => sale.status === "pending");
      const walletTender = pending?.tenders.find((tender) => tender.kind === "wallet");
      expect(pending).toMatchObject({ tender: "split", paid_cents: 100 });
      const expired = await fetch(`${world.platform.baseUrl}/checkout/${walletTender?.payment_id}/mockpay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ outcome: "expired" }),
      });
      expect(expired.status).toBe(200);
      // What was paid is kept and shown; the failed wallet paid nothing.
      await dialog.getByRole("alert").filter({ hasText: "What was paid is kept (USD 1.00)" }).waitFor();
      await dialog
        .getByRole("list", { name: "Tenders taken" })
        .getByText(/Wallet USD 2\.00 · failed/)
        .waitFor();
      expect(await dialog.getByTestId("tender-due").textContent()).toBe("USD 2.00 · ZWG 53.57");
      await till.addTender({ kind: "Cash", currency: "ZWG", amount: "53.57" });
      await dialog.getByRole("button", { name: "Complete sale" }).click();
      await page.getByRole("status").filter({ hasText: "Sale complete: USD 3.00 by split" }).waitFor();
      await till.waitForCart([]);
      // The receipt keeps the failed wallet, which paid nothing, beside what did pay.
      const printed = await till.printedReceipt("Paid: Split");
      for (const text of [
        "Cash USD 1.00",
        "Wallet (failed: paid nothing) USD 2.00",
        "Cash ZWG 53.57 at 26.7843 = USD 2.00",
      ]) {
        expect(printed).toContain(text);
      }
      const sale = await saleById(pending?.id ?? "");
      expect(sale.status).toBe("completed");
      expect(sale.tenders.map((tender) => [tender.kind, tender.currency, tender.amount_cents, tender.status])).toEqual([
        ["cash", "USD", 100, "paid"],
        ["wallet", "USD", 200, "failed"],
        ["cash", "ZWG", 5357, "paid"],
      ]);
      expect(till.app.consoleErrors).toEqual([]);
    } finally {
      await till.close();
    }
  });

  test("a wallet first, then ZWG cash with change given at once; the wallet expires: the cash is kept net of the change, and USD cash completes it", async () => {
    const { till, page, dialog } = await openPayStep(2);
    try {
      await till.addTender({ kind: "Wallet", currency: "USD", amount: "1.00" });
      // USD 2.00 left; ZWG 60.00 counts USD 2.24 (6000 / 26.7843, rounded down): 0.24 over, ZWG 6.42.
      await till.addTender({ kind: "Cash", currency: "ZWG", amount: "60" });
      await dialog.getByRole("group", { name: "Give change in" }).getByRole("button", { name: "ZWG 6.42" }).click();
      await dialog.getByRole("button", { name: "Get wallet code" }).click();
      await dialog.getByTestId("payment-code").waitFor();
      await dialog.getByTestId("split-change").filter({ hasText: "Give the change now: ZWG 6.42" }).waitFor();
      const pending = (await sales()).find((sale) => sale.status === "pending");
      expect(pending).toMatchObject({ paid_cents: 200, change: { currency: "ZWG", amount_cents: 642 } });
      const expired = await fetch(`${world.platform.baseUrl}/checkout/${pending?.tenders[0]?.payment_id}/mockpay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ outcome: "expired" }),
      });
      expect(expired.status).toBe(200);
      // Kept: what the ZWG cash paid net of the change already given, USD 2.00; USD 1.00 is still due.
      await dialog.getByRole("alert").filter({ hasText: "What was paid is kept (USD 2.00)" }).waitFor();
      expect(await dialog.getByTestId("tender-due").textContent()).toBe("USD 1.00 · ZWG 26.79");
      expect(await till.app.accessibilityViolations()).toEqual([]);
      await till.addTender({ kind: "Cash", currency: "USD", amount: "2.00" });
      // USD 1.00 over: given in ZWG only (× 26.7843, rounded down), the currency of the change already given.
      const change = dialog.getByRole("group", { name: "Give change in" });
      expect(await change.getByRole("button").allTextContents()).toEqual(["ZWG 26.78"]);
      await dialog.getByRole("button", { name: "Complete sale" }).click();
      const done = page.getByRole("status").filter({ hasText: "Sale complete: USD 3.00 by split" });
      await done.waitFor();
      // The first ZWG change was handed over when the cash was taken: only this tender's own is asked for.
      expect(await done.textContent()).toContain("change due ZWG 26.78");
      expect(await till.printedReceipt("Paid: Split")).toContain("Change ZWG 33.20");
      const sale = await saleById(pending?.id ?? "");
      expect(sale.tenders.map((tender) => [tender.kind, tender.currency, tender.amount_cents, tender.status])).toEqual([
        ["wallet", "USD", 100, "failed"],
        ["cash", "ZWG", 6000, "paid"],
        ["cash", "USD", 200, "paid"],
      ]);
      expect(sale).toMatchObject({
        status: "completed",
        paid_cents: 300,
        change: { currency: "ZWG", amount_cents: 3320 },
      });
      expect(till.app.consoleErrors).toEqual([]);
    } finally {
      await till.close();
    }
  });

  test("a pending split sale cancelled by switching worlds: its toast says what to give back, net of the change given", async () => {
    const { till, page, dialog } = await openPayStep(2);
    try {
      // USD 3.00 due: a wallet USD 1.88 (pending), and ZWG 40 in cash covering the rest with change.
      await till.addTender({ kind: "Wallet", currency: "USD", amount: "1.88" });
      await till.addTender({ kind: "Cash", currency: "ZWG", amount: "40" });
      await dialog.getByRole("button", { name: "Get wallet code" }).click();
      await dialog.getByTestId("payment-code").waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      await page.getByTestId("cart-held").waitFor();

      await page.getByRole("button", { name: "Live" }).click();
      await page
        .getByRole("dialog", { name: "Switch to LIVE?" })
        .getByRole("button", { name: "Empty cart and switch" })
        .click();
      let cancelled: Sale | undefined;
      await waitUntil("the held split sale is cancelled", async () => {
        cancelled = (await sales()).find((sale) => sale.tender === "split" && sale.status === "cancelled");
        return cancelled !== undefined;
      });
      const cash = cancelled?.tenders.find((tender) => tender.kind === "cash");
      // The change was handed over when the cash was taken: what goes back is the cash net of it.
      expect(cancelled?.change?.amount_cents).toBeGreaterThan(0);
      expect(cash?.net_amount_cents).toBeLessThan(4_000);
      await page
        .getByRole("status")
        .getByText(
          `Split sale cancelled: give back ${formatMoney("ZWG", cash?.net_amount_cents ?? 0)} in cash from the drawer.`,
          { exact: true },
        )
        .waitFor();
      expect(till.app.consoleErrors).toEqual([]);
    } finally {
      await till.close();
    }
  });

  test("a pending split sale cancelled: the till says what to give back, and the cart is free again", async () => {
    const { till, page, dialog } = await openPayStep(2);
    try {
      await till.addTender({ kind: "Cash", currency: "ZWG", amount: "30" });
      await till.addTender({ kind: "Wallet", currency: "USD", amount: "1.88" });
      await dialog.getByRole("button", { name: "Get wallet code" }).click();
      await dialog.getByTestId("payment-code").waitFor();
      // Closed, the sale keeps the cart; Show payment brings its Pay step back.
      await dialog.getByRole("button", { name: "Close" }).click();
      await page.getByTestId("cart-held").getByRole("button", { name: "Show payment" }).click();
      await dialog.getByRole("button", { name: "Cancel sale…" }).click();
      await dialog.getByText("Give back to the customer, in cash from the drawer: ZWG 30.00.").waitFor();
      expect(await till.app.accessibilityViolations()).toEqual([]);
      await dialog.getByRole("button", { name: "Cancel sale and give back" }).click();
      await dialog
        .getByTestId("split-cancelled")
        .filter({ hasText: "Sale cancelled. Give back to the customer, in cash from the drawer: ZWG 30.00." })
        .waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();
      await till.waitForCart([{ name: "Cola 330ml", qty: "2" }]);
      expect(await page.getByTestId("cart-held").count()).toBe(0);
      const cancelled = (await sales()).find((sale) => sale.tender === "split" && sale.status === "cancelled");
      expect(cancelled).toBeDefined();
      expect(till.app.consoleErrors).toEqual([]);
    } finally {
      await till.close();
    }
  });
});

/// <reference lib="dom" />
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { z } from "zod";
import { formatMoney } from "../../../src/kernel/money.ts";
import { sql } from "../../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import {
  DASHBOARD_PASSWORD,
  expectCleanSession,
  openDashboardPage,
  paidTestPayment,
  signInToDashboard,
} from "../../support/dashboard-page.ts";
import { fundMerchant, newMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

/** The merchant's available USD in TEST, as the ledger keeps it. */
const availableCents = (merchantId: string) =>
  world.db.database.oneFirst(sql.type(z.object({ cents: z.number() }))`
    SELECT coalesce(sum(balance_cents), 0)::bigint AS cents FROM ledger_balances
    WHERE merchant_id = ${merchantId} AND NOT livemode AND account = 'merchant_available' AND currency = 'USD'`);

test("Home's 7-day chart; Balance: the balance, ledger entries by the merchant's reference, a statement CSV named by its days", async () => {
  const shop = await newMerchant(world.db.database);
  await fundMerchant(world.db.database, { merchantId: shop.id, livemode: false, currency: "USD", amountCents: 12_345 });
  const payment = await paidTestPayment(world.platform.baseUrl, shop.testKey, {
    amountCents: 1500,
    merchantRef: "csv-1",
  });
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    // Home: the paid payment is today's bar of the 7-day chart, its figure in the chart's text table.
    const chart = page.getByRole("figure");
    await chart.getByText("USD: USD 15.00 in 7 days").waitFor();
    expect(await chart.getByRole("img").getAttribute("aria-label")).toBe("Daily takings in USD, USD 15.00 in 7 days");
    const days = await chart.locator("tbody tr").allTextContents();
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toMatch(/USD 15\.00$/);
    expect(days.slice(0, -1).every((day) => day.endsWith("USD 0.00"))).toBe(true);
    expect(await app.accessibilityViolations()).toEqual([]);

    await openDashboardPage(app, "Balance");
    await page.getByRole("cell", { name: "Test funding" }).waitFor();
    // The available balance is on the page, as the ledger keeps it.
    expect(await page.getByTestId("available-USD").textContent()).toBe(
      `USD · TEST${formatMoney("USD", await availableCents(shop.id))}`,
    );
    // The payment's entries show the merchant's reference (not the wallet's) and link to the payment.
    const references = page.getByRole("link", { name: "csv-1", exact: true });
    expect(await references.count()).toBeGreaterThan(0);
    expect(await references.first().getAttribute("href")).toBe(`/dashboard/payments/${payment.id}`);
    await references.first().click();
    await page.getByRole("heading", { name: `Payment ${payment.id}`, level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole("cell", { name: "Test funding" }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // Yesterday through today (local days, as the form takes them).
    const today = new Date();
    const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
    const day = (date: Date) =>
      `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
    await page.getByLabel("Statement from").fill(day(yesterday));
    await page.getByLabel("Statement to (inclusive)").fill(day(today));
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    // Named by the days chosen, as the person reads them (not the exclusive end instant's date).
    expect(download.suggestedFilename()).toBe(`statement-test-${day(yesterday)}-to-${day(today)}.csv`);
    const text = await readFile(await download.path(), "utf8");
    const rows: Record<string, string>[] = parse(text, { bom: true, columns: true });
    // One opening and one closing row per currency, the period's entries between them.
    expect(rows[0]?.entry_type).toBe("opening_balance");
    expect(rows.at(-1)?.entry_type).toBe("closing_balance");
    const usd = rows.filter((row) => row.currency === "USD");
    const opening = usd.find((row) => row.entry_type === "opening_balance");
    const closing = usd.find((row) => row.entry_type === "closing_balance");
    const entries = usd.filter((row) => row !== opening && row !== closing);
    expect(opening?.balance_cents).toBe("0");
    expect(entries.map((row) => row.source_id)).toContain(payment.id);
    const sum = entries.reduce((total, row) => total + Number(row.amount_cents), 0);
    expect(Number(closing?.balance_cents)).toBe(sum);
    expect(Number(closing?.balance_cents)).toBe(await availableCents(shop.id));

    expect(app.refusals).toEqual(["401 GET /v1/session"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

test("Payouts: a payout to the verified wallet, asked for with the password again (step-up)", async () => {
  const shop = await newMerchant(world.db.database, { payout_msisdn: "263771234567", payout_verified: true });
  await fundMerchant(world.db.database, { merchantId: shop.id, livemode: false, currency: "USD", amountCents: 10_000 });
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Payouts");
    await page.getByText("263771234567").waitFor();
    await page.getByRole("cell", { name: "No payouts yet." }).waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);

    // The password was entered 6 minutes ago as far as step-up goes.
    await world.db.database.query(sql.unsafe`
      UPDATE sessions SET password_verified_at = now() - interval '6 minutes' WHERE merchant_id = ${shop.id}`);
    await page.getByLabel("Amount").fill("25.50");
    await page.getByRole("button", { name: "Request payout" }).click();
    const stepUp = page.getByRole("dialog", { name: "Confirm your password" });
    await stepUp.waitFor();
    expect(await app.accessibilityViolations()).toEqual([]);
    await stepUp.getByLabel("Password").fill(DASHBOARD_PASSWORD);
    await stepUp.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Payout of USD 25.50 requested.").waitFor();
    await page.getByRole("cell", { name: "USD 25.50" }).waitFor();

    const payouts = await world.db.database.any(
      sql.type(
        z.object({
          amount_cents: z.number(),
          currency: z.string(),
          livemode: z.boolean(),
          destination_account: z.string(),
        }),
      )`SELECT amount_cents, currency, livemode, destination_account FROM payouts WHERE merchant_id = ${shop.id}`,
    );
    expect(payouts).toEqual([
      { amount_cents: 2550, currency: "USD", livemode: false, destination_account: "263771234567" },
    ]);
    expect(await availableCents(shop.id)).toBe(10_000 - 2550);
    // The first attempt was refused for step-up; the second, with a new Idempotency-Key, went through.
    expect(app.refusals).toEqual(["401 GET /v1/session", "403 POST /v1/payouts"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

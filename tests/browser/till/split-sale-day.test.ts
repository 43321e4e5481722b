/// <reference lib="dom" />
import {
  addProduct,
  externalRequests,
  type OwnerCaller,
  ownerSession,
  startTillWorld,
  TillPage,
  type TillWorld,
} from "../../support/till.ts";

/**
 * Issue 47 end to end, in Chromium: a discounted, taxed sale paid by a USD wallet and ZWG cash with
 * change in USD, at the rate of the day; its printed receipt; the drawer's Z report; and the sales
 * report's CSV, all with the same figures.
 */
let world: TillWorld;
let owner: OwnerCaller;

beforeAll(async () => {
  world = await startTillWorld();
  owner = await ownerSession(world);
  // Prices without tax, 15 % added unless a product says otherwise; USD 1 = ZWG 26.5.
  const profile = await owner("PATCH", "/v1/shop_profile", {
    display_name: "Moyo Grocer",
    tax_number: "10023456",
    tax_mode: "exclusive",
    default_tax_rate_bp: 1500,
  });
  expect(profile.status).toBe(200);
  expect((await owner("POST", "/v1/exchange_rates", { base: "USD", other: "ZWG", rate: "26.5" })).status).toBe(201);
  await addProduct(world, { name: "Maize meal", price_cents: 1_000, barcode: "6001234500110", stock_qty: 20 });
  await addProduct(world, { name: "Bread", price_cents: 200, barcode: "6001234500127", tax_rate_bp: 0 });
});
afterAll(() => world?.close());

type Sale = {
  id: string;
  status: string;
  total_cents: number;
  discount_cents: number;
  tax_cents: number;
  tenders: { kind: string; currency: string; amount_cents: number; status: string; payment_id: string | null }[];
  change: { currency: string; amount_cents: number } | null;
};

/** Rings up 2 maize meal (10 % off, "Damaged bag") and a bread, then USD 2.00 off the cart ("Loyalty"). */
async function ringUp(till: TillPage): Promise<void> {
  await till.scan("6001234500110");
  await till.scan("6001234500110");
  await till.scan("6001234500127");
  await till.waitForCart([
    { name: "Maize meal", qty: "2" },
    { name: "Bread", qty: "1" },
  ]);
  await till.discount({ line: "Maize meal", percent: "10", reason: "Damaged bag" });
  await till.discount({ amount: "2.00", reason: "Loyalty" });
  // 2000 − 200 = 1800 and 200; the cart's 2.00 shared 180 / 20: 1620 at 15 % (243), 180 at 0 %: 2043.
  await till.page.getByTestId("cart-total").filter({ hasText: "USD 20.43" }).waitFor();
  expect(await till.page.getByTestId("cart-discount").textContent()).toBe("−USD 4.00");
  expect(await till.page.getByTestId("cart-tax-1500").textContent()).toBe("USD 2.43");
}

/** Pays USD 10.00 by wallet, then ZWG 300.00 cash (counts USD 11.32): USD 0.89 change, given at once. */
async function payWalletThenZwgCash(till: TillPage): Promise<Sale> {
  const { page } = till;
  await page.getByRole("button", { name: "Split or ZWG" }).click();
  const dialog = page.getByRole("dialog", { name: "Split payment" });
  await dialog.getByText(/^Rate of the day: USD 1 = ZWG 26\.5 · set/).waitFor();
  await till.addTender({ kind: "Wallet", currency: "USD", amount: "10.00" });
  // USD 10.43 left, asked as ZWG 276.40 (10.43 × 26.5 = 276.395, rounded up).
  expect(await dialog.getByTestId("tender-due").textContent()).toBe("USD 10.43 · ZWG 276.40");
  await till.addTender({ kind: "Cash", currency: "ZWG", amount: "300" });
  const change = dialog.getByRole("group", { name: "Give change in" });
  // 30000 / 26.5 = 1132.07 → USD 11.32 counted, 0.89 over: USD 0.89 or ZWG 23.58 (0.89 × 26.5, rounded down).
  expect(await change.getByRole("button").allTextContents()).toEqual(["USD 0.89", "ZWG 23.58"]);
  await change.getByRole("button", { name: "USD 0.89" }).click();
  expect(await till.app.accessibilityViolations()).toEqual([]);
  await dialog.getByRole("button", { name: "Get wallet code" }).click();
  await dialog.getByTestId("payment-code").waitFor();
  await dialog.getByTestId("split-change").filter({ hasText: "Give the change now: USD 0.89" }).waitFor();
  expect(await till.app.accessibilityViolations()).toEqual([]);
  const sales = (await world.api("test")<{ data: Sale[] }>("GET", "/v1/sales")).body.data;
  const pending = sales.find((sale) => sale.status === "pending");
  if (pending === undefined) throw new Error("no pending sale");
  return pending;
}

test("a discounted, taxed sale paid by a USD wallet and ZWG cash with change: its receipt, its Z report and the report CSV agree", async () => {
  const till = await TillPage.open(world);
  const { page } = till;
  try {
    await page.addInitScript(() => {
      window.print = () => {};
    });
    await till.signIn(world.shop.email);
    await till.openDrawer({ USD: "20" });
    await ringUp(till);
    const pending = await payWalletThenZwgCash(till);
    expect(pending).toMatchObject({
      total_cents: 2_043,
      change: { currency: "USD", amount_cents: 89 },
      tenders: [
        { kind: "wallet", currency: "USD", amount_cents: 1_000, status: "pending" },
        { kind: "cash", currency: "ZWG", amount_cents: 30_000, status: "paid" },
      ],
    });

    // The customer pays the wallet (the test gateway): the sale completes; the change was given already.
    const paid = await fetch(`${world.platform.baseUrl}/checkout/${pending.tenders[0]?.payment_id}/mockpay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(paid.status).toBe(200);
    const done = page.getByRole("status").filter({ hasText: "Sale complete: USD 20.43 by split" });
    await done.waitFor();
    expect(await done.textContent()).not.toContain("change due");
    const sale = (await world.api("test")<Sale>("GET", `/v1/sales/${pending.id}`)).body;
    expect(sale).toMatchObject({ status: "completed", total_cents: 2_043, discount_cents: 400, tax_cents: 243 });

    const printed = await till.printedReceipt("VAT no. 10023456");
    for (const text of [
      "Moyo Grocer",
      "Maize meal @ USD 10.00 Discount −USD 3.80 (Damaged bag)",
      "Bread @ USD 2.00 Discount −USD 0.20",
      "Subtotal USD 22.00",
      "Discounts (Loyalty) −USD 4.00",
      "Tax 15 % on USD 16.20 USD 2.43",
      "Total USD 20.43",
      "Paid: Split",
      "Wallet USD 10.00",
      "Cash ZWG 300.00 at 26.5 = USD 11.32",
      "Change USD 0.89",
    ]) {
      expect(printed).toContain(text);
    }
    expect(printed).not.toContain("Tax 0 %");

    await closeAndCheckZReport(till);
    await checkReportCsv(sale);
    expect(till.app.consoleErrors).toEqual([]);
    expect(externalRequests(till, world.platform.baseUrl)).toEqual([]);
  } finally {
    await till.close();
  }
});

/** The drawer closed even (USD 20 − 0.89, ZWG 300), and its Z report: each currency exact, discounts and tax. */
async function closeAndCheckZReport(till: TillPage): Promise<void> {
  const { page } = till;
  const figure = (scope: string, row: string) => page.locator(`${scope} [data-figure="${row}"]`).textContent();
  await page.getByRole("link", { name: "Drawer" }).click();
  await page.locator('[data-figure="expected-USD"]').filter({ hasText: "USD 19.11" }).waitFor();
  expect(await figure(".drawer", "expected-ZWG")).toBe("ZWG 300.00");
  const counted = page.getByRole("group", { name: "Counted" });
  await counted.getByLabel("USD").fill("19.11");
  await counted.getByLabel("ZWG").fill("300");
  await page.getByRole("button", { name: "Close drawer" }).click();
  await page.getByRole("status").filter({ hasText: "Drawer closed" }).waitFor();
  await page.getByRole("button", { name: "Print Z report" }).click();
  await page.getByRole("heading", { name: "Z report" }).waitFor();
  // Cash sales are net of change: the ZWG taken, the USD change given out of the USD float.
  expect(await figure(".z-report", "sales-ZWG")).toBe("ZWG 300.00");
  expect(await figure(".z-report", "sales-USD")).toBe("USD -0.89");
  expect(await figure(".z-report", "expected-USD")).toBe("USD 19.11");
  expect(await figure(".z-report", "expected-ZWG")).toBe("ZWG 300.00");
  expect(await figure(".z-report", "over-short-USD")).toBe("USD 0.00 (even)");
  expect(await figure(".z-report", "over-short-ZWG")).toBe("ZWG 0.00 (even)");
  const taxes = await page
    .getByRole("table", { name: "Discounts and tax" })
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent ?? "")));
  expect(taxes).toEqual([
    ["Discounts (1 sales)", "USD 4.00"],
    ["Tax 15 % on USD 16.20", "USD 2.43"],
  ]);
  expect(await till.app.accessibilityViolations()).toEqual([]);
}

/** Today's sales report as CSV (the dashboard's Download CSV): by day, and by tender per currency. */
async function checkReportCsv(sale: Sale): Promise<void> {
  const csv = async (dimension: string) => {
    const response = await fetch(`${world.platform.baseUrl}/v1/sales/reports/${dimension}.csv`, {
      headers: { authorization: `Bearer ${world.shop.testKey}` },
    });
    expect(response.status).toBe(200);
    const [header, ...rows] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    const names = (header ?? "").split(",");
    // The rows, then a total row per currency: the rows alone.
    return rows
      .map((row) => Object.fromEntries(row.split(",").map((cell, index) => [names[index], cell])))
      .filter((row) => row.label !== "Total");
  };
  const gross = sale.total_cents + sale.discount_cents;
  const byDay = await csv("day");
  expect(byDay).toEqual([
    expect.objectContaining({
      currency: "USD",
      count: "1",
      gross_cents: String(gross),
      discount_cents: String(sale.discount_cents),
      refund_cents: "0",
      tax_cents: String(sale.tax_cents),
      net_cents: String(sale.total_cents),
      gross: "24.43",
      discounts: "4.00",
      tax: "2.43",
      net: "20.43",
    }),
  ]);
  // Per tender and currency, in the tender's money: the wallet's USD, the ZWG cash, the USD change out.
  const byTender = (await csv("tender")).map((row) => [row.key, row.currency, row.gross_cents, row.net_cents]);
  expect(byTender).toEqual([
    ["cash", "USD", "-89", "-89"],
    ["cash", "ZWG", "30000", "30000"],
    ["wallet", "USD", "1000", "1000"],
  ]);
}

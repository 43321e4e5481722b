/// <reference lib="dom" />
import { openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { startTillWorld, TillPage, type TillWorld } from "../../support/till.ts";
import { type AppPage, openAppPage } from "../../support/web-app.ts";

let world: TillWorld;

beforeAll(async () => {
  world = await startTillWorld();
});
afterAll(() => world?.close());

async function openDashboard(link: string): Promise<AppPage> {
  const dashboard = await openAppPage(world.browser);
  await signInToDashboard(dashboard, world.platform.baseUrl, world.shop.email);
  await openDashboardPage(dashboard, link);
  return dashboard;
}

test("the owner saves the receipt and tax settings and reads them back; the tax rate is sent exactly in basis points", async () => {
  const dashboard = await openDashboard("Receipt & tax");
  const { page } = dashboard;
  try {
    // The account's name until the owner sets one.
    expect(await page.getByLabel("Shop name on receipts").inputValue()).toBe(world.shop.merchant.name);
    await page.getByLabel("Shop name on receipts").fill("Mbare Corner Store");
    await page.getByLabel("Address").fill("12 Mbare Road, Harare");
    await page.getByLabel("Tax number (VAT)").fill("VAT-10020030");
    await page.getByLabel("Receipt footer").fill("Goods exchanged within 7 days with this receipt.");
    await page.getByLabel("Product prices").selectOption("exclusive");
    const preview = page.getByRole("complementary", { name: "Receipt preview" });
    await preview.getByText("Tax number: VAT-10020030").waitFor();
    expect(await preview.getByText("Mbare Corner Store").count()).toBe(1);
    // Not a percent: the field's own error, announced with it; nothing is sent.
    await page.getByLabel("Default tax rate (%)").fill("15.555");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("A percent from 0 to 100, like 15 or 15.5.").waitFor();
    expect(await page.getByLabel("Default tax rate (%)").getAttribute("aria-invalid")).toBe("true");
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    // 14.35 × 100 is 1434.9999… in floating point: the digits are read, so 1435 is sent.
    await page.getByLabel("Default tax rate (%)").fill("14.35");
    // A control character is the API's refusal (a 400 naming body.tax_number): shown under that field.
    await page.getByLabel("Tax number (VAT)").fill("VAT\u0007");
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .locator(".field-error")
      .filter({ hasText: "tax_number: contains the control character U+0007" })
      .waitFor();
    expect(await page.getByLabel("Tax number (VAT)").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Default tax rate (%)").getAttribute("aria-invalid")).toBeNull();
    await page.getByLabel("Tax number (VAT)").fill("VAT-10020030");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Receipt and tax settings saved.").waitFor();

    const saved = await world.api("test")("GET", "/v1/shop_profile");
    expect(saved.body).toMatchObject({
      display_name: "Mbare Corner Store",
      address: "12 Mbare Road, Harare",
      tax_number: "VAT-10020030",
      receipt_footer: "Goods exchanged within 7 days with this receipt.",
      tax_mode: "exclusive",
      default_tax_rate_bp: 1435,
    });
    // Read back after a reload, as the API keeps them.
    await page.reload();
    await page.getByRole("heading", { name: "Receipt & tax", level: 1 }).waitFor();
    await page.getByLabel("Default tax rate (%)").waitFor();
    expect(await page.getByLabel("Shop name on receipts").inputValue()).toBe("Mbare Corner Store");
    expect(await page.getByLabel("Default tax rate (%)").inputValue()).toBe("14.35");
    expect(await page.getByLabel("Product prices").inputValue()).toBe("exclusive");
    // Cleared: an empty text clears the field.
    await page.getByLabel("Tax number (VAT)").fill("");
    const patched = page.waitForResponse(
      (response) => response.url().endsWith("/v1/shop_profile") && response.request().method() === "PATCH",
    );
    await page.getByRole("button", { name: "Save" }).click();
    expect((await patched).status()).toBe(200);
    expect((await world.api("test")("GET", "/v1/shop_profile")).body).toMatchObject({ tax_number: null });
    expect(dashboard.consoleErrors).toEqual([]);
  } finally {
    await dashboard.close();
  }
});

test("the owner sets the discount limit as a percent; the API keeps it in basis points", async () => {
  const dashboard = await openDashboard("Receipt & tax");
  const { page } = dashboard;
  try {
    const limit = page.getByLabel("Discount limit (%)");
    // No limit until the owner sets one.
    expect(await limit.inputValue()).toBe("100");
    await limit.fill("120");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("A percent from 0 to 100, like 15 or 15.5.").waitFor();
    expect(await limit.getAttribute("aria-invalid")).toBe("true");
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    expect((await world.api("test")("GET", "/v1/shop_profile")).body).toMatchObject({ discount_limit_bp: 10_000 });
    await limit.fill("12.5");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Receipt and tax settings saved.").waitFor();
    expect((await world.api("test")("GET", "/v1/shop_profile")).body).toMatchObject({ discount_limit_bp: 1250 });
    await page.reload();
    await page.getByRole("heading", { name: "Receipt & tax", level: 1 }).waitFor();
    await page.getByLabel("Discount limit (%)").waitFor();
    expect(await page.getByLabel("Discount limit (%)").inputValue()).toBe("12.5");
    expect(dashboard.consoleErrors).toEqual([]);
  } finally {
    await dashboard.close();
  }
});

test("the owner sets the rate of the day; the page shows it with its history, and the till shows it on Today", async () => {
  const dashboard = await openDashboard("Rate of the day");
  const { page } = dashboard;
  const till = await TillPage.open(world);
  try {
    await page.getByText("USD → ZWG: not set").waitFor();
    await page.getByLabel("Rate", { exact: true }).fill("26.1234567");
    await page.getByRole("button", { name: "Set rate" }).click();
    await page.getByText("A rate above zero like 26.7843 (at most 6 decimals).").waitFor();
    expect(await dashboard.accessibilityViolations()).toEqual([]);
    await page.getByLabel("Rate", { exact: true }).fill("26.5");
    await page.getByRole("button", { name: "Set rate" }).click();
    await page.getByText("Rate of the day set: USD 1 = ZWG 26.5.").waitFor();
    await page.getByLabel("Rate", { exact: true }).fill("26.7843");
    await page.getByRole("button", { name: "Set rate" }).click();
    await page.getByText("Rate of the day set: USD 1 = ZWG 26.7843.").waitFor();
    await page
      .getByRole("listitem")
      .filter({ hasText: /^USD 1 = ZWG 26\.7843 · set .* by Owner$/ })
      .waitFor();
    await page.getByText("ZWG → USD: not set").waitFor();

    // The history, newest first, each with who set it.
    const history = page.getByRole("table", { name: /USD → ZWG rates/ });
    await history.getByRole("row").nth(2).waitFor();
    const rows = await history.getByRole("row").allInnerTexts();
    expect(rows.slice(1).map((row) => row.replace(/^.*?\t/, ""))).toEqual([
      "USD 1 = ZWG 26.7843\tOwner",
      "USD 1 = ZWG 26.5\tOwner",
    ]);
    const stored = await world.api("test")<{ data: { rate: string; other_per_base_micros: number }[] }>(
      "GET",
      "/v1/exchange_rates/current",
    );
    expect(stored.body.data).toMatchObject([{ rate: "26.7843", other_per_base_micros: 26_784_300 }]);

    await till.signIn(world.shop.email);
    await till.page.getByRole("link", { name: "Today" }).click();
    const rate = till.page.getByRole("region", { name: "Rate of the day" });
    await rate.getByText(/^USD 1 = ZWG 26\.7843, set \d\d:\d\d by the owner$/).waitFor();
    expect(dashboard.consoleErrors).toEqual([]);
  } finally {
    await till.close();
    await dashboard.close();
  }
});

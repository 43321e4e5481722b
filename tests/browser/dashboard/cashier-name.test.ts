/// <reference lib="dom" />
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

const addCashier = async (page: import("playwright-core").Page, name: string) => {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("PIN", { exact: true }).fill("4821");
  await page.getByLabel("PIN again").fill("4821");
  await page.getByRole("button", { name: "Add cashier" }).click();
};

test("a cashier name already used is refused under the Name field, and the message goes when the name changes", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Cashiers");
    await addCashier(page, "Tendai Moyo");
    await page.getByRole("row").filter({ hasText: "Tendai Moyo" }).waitFor();
    await addCashier(page, "tendai moyo ");
    const name = page.getByLabel("Name");
    await page.getByText("A cashier named tendai moyo already exists: use another name.").waitFor();
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    expect(
      await page
        .getByRole("row")
        .filter({ hasText: /tendai moyo/i })
        .count(),
    ).toBe(1);
    expect(await app.accessibilityViolations()).toEqual([]);
    await name.fill("Tendai Moyo Jr");
    expect(await name.getAttribute("aria-invalid")).toBeNull();
    expect(app.refusals).toEqual(["401 GET /v1/session", "409 POST /v1/cashiers"]);
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await app.close();
  }
});

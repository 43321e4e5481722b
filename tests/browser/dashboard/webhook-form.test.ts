/// <reference lib="dom" />
import { eventTypes } from "../../../src/kernel/event-types.ts";
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { expectCleanSession, openDashboardPage, signInToDashboard } from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

test("an endpoint's event types are picked, not typed; each refusal shows under its own field and the page keeps its width", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Webhooks");
    const picker = page.getByRole("group", { name: "Event types" });
    // Every type the platform emits is offered, and * (the default).
    await expect(picker.getByRole("checkbox", { name: /^Every event \(\*\)/ }).isChecked()).resolves.toBe(true);
    for (const type of eventTypes) {
      await picker.getByRole("checkbox", { name: type, exact: true }).waitFor();
    }
    expect(await app.accessibilityViolations()).toEqual([]);

    // Nothing picked: said under the picker, nothing sent.
    await picker.getByRole("checkbox", { name: /^Every event/ }).uncheck();
    await page.getByLabel("Endpoint URL").fill("https://merchant.example/hooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await picker.getByText("Pick at least one event type, or every event.").waitFor();

    // A URL the API refuses: its message under the URL, not under the types; the page as wide as the window.
    await picker.getByRole("checkbox", { name: "payment.paid", exact: true }).check();
    await picker.getByRole("checkbox", { name: "sale.completed", exact: true }).check();
    await page.getByLabel("Endpoint URL").fill("https://user:secret@merchant.example/hooks");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const urlField = page.getByLabel("Endpoint URL");
    await page.waitForFunction(() => document.querySelector("[aria-invalid=true]") !== null, undefined, {
      timeout: 30_000,
    });
    expect(await urlField.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await urlField.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe("url: must not carry credentials.");
    expect(await picker.locator(".field-error").count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect(await app.accessibilityViolations()).toEqual([]);

    // Corrected: the endpoint hears exactly the two picked types; the error went with the edit.
    await urlField.fill("https://merchant.example/hooks");
    expect(await urlField.getAttribute("aria-invalid")).toBeNull();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("dialog", { name: "Your signing secret" }).getByRole("button", { name: "Done" }).click();
    const listed = await fetch(`${world.platform.baseUrl}/v1/webhook_endpoints`, {
      headers: { authorization: `Bearer ${shop.testKey}` },
    });
    const endpoints = ((await listed.json()) as { data: { event_types: string[] }[] }).data;
    expect(endpoints.map((endpoint) => endpoint.event_types)).toEqual([["payment.paid", "sale.completed"]]);
    expect(app.refusals).toEqual(["401 GET /v1/session", "400 POST /v1/webhook_endpoints"]);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

/// <reference lib="dom" />
import { servedBrowserWorld } from "../../support/browser-world.ts";
import {
  expectCleanSession,
  openDashboardPage,
  paidTestPayment,
  signInToDashboard,
} from "../../support/dashboard-page.ts";
import { newMerchant } from "../../support/factories.ts";
import { readUntil, waitUntil } from "../../support/time.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

test("Developers → Events lists the newest event first, and Oldest first switches the order", async () => {
  const shop = await newMerchant(world.db.database);
  await paidTestPayment(world.platform.baseUrl, shop.testKey, { amountCents: 500, merchantRef: "first" });
  await paidTestPayment(world.platform.baseUrl, shop.testKey, { amountCents: 700, merchantRef: "second" });
  // The feed (oldest first), once it shows every event: the order the page must reverse.
  let oldestFirst: string[] = [];
  await waitUntil("the feed shows the events of both paid payments", async () => {
    const response = await fetch(`${world.platform.baseUrl}/v1/events?limit=100`, {
      headers: { authorization: `Bearer ${shop.testKey}` },
    });
    oldestFirst = ((await response.json()) as { data: { id: string }[] }).data.map((event) => event.id);
    return oldestFirst.length >= 2;
  });
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await signInToDashboard(app, world.platform.baseUrl, shop.email);
    await openDashboardPage(app, "Events");
    // Each table's ids, read until its load has shown them: a table appearing is no sign that its rows
    // are the ones its caption names (they came apart for one frame in CI).
    const idsIn = (caption: string) => page.getByRole("table", { name: caption }).locator("tbody tr td:nth-child(3)");
    const newestFirst = [...oldestFirst].reverse();
    expect(await readUntil(() => idsIn("Events, newest first").allTextContents(), newestFirst)).toEqual(newestFirst);
    expect(await app.accessibilityViolations()).toEqual([]);

    await page.getByLabel("Order").selectOption({ label: "Oldest first" });
    expect(await readUntil(() => idsIn("Events, oldest first").allTextContents(), oldestFirst)).toEqual(oldestFirst);
    expectCleanSession(app, world.platform.baseUrl);
  } finally {
    await app.close();
  }
});

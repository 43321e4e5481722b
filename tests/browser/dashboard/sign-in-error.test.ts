/// <reference lib="dom" />
import { servedBrowserWorld } from "../../support/browser-world.ts";
import { newMerchant } from "../../support/factories.ts";
import { openAppPage } from "../../support/web-app.ts";

const world = servedBrowserWorld();

test("sign-in: an old error goes as soon as the form changes", async () => {
  const shop = await newMerchant(world.db.database);
  const app = await openAppPage(world.browser);
  const { page } = app;
  try {
    await page.goto(`${world.platform.baseUrl}/dashboard`);
    await page.getByLabel("Email").fill(shop.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    const error = page.getByRole("alert").filter({ hasText: "The email or password is not correct." });
    await error.waitFor();
    await page.getByLabel("Password").fill("correct horse");
    await error.waitFor({ state: "detached" });
    expect(await app.accessibilityViolations()).toEqual([]);
  } finally {
    await app.close();
  }
});

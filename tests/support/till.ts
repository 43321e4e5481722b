/// <reference lib="dom" />
import { randomUUID } from "node:crypto";
import type { Browser, CDPSession } from "playwright-core";
import { launchChromium } from "./browser.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { newMerchant, type TestMerchant } from "./factories.ts";
import { type ServedPlatform, servePlatform } from "./served-platform.ts";
import { type AppPage, openAppPage } from "./web-app.ts";

export const PASSWORD = "correct horse battery";

/** What a till test file runs against: its database, the served platform, Chromium and a shop. */
export type TillWorld = {
  db: TestDatabase;
  platform: ServedPlatform;
  browser: Browser;
  shop: TestMerchant;
  /** The /v1 API with one of the shop's keys (what the assertions compare the screen with). */
  api: (world: "test" | "live") => ApiCaller;
  close: () => Promise<void>;
};

export type ApiCaller = <T = Record<string, unknown>>(
  method: "GET" | "POST" | "PATCH",
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: T }>;

export async function startTillWorld(): Promise<TillWorld> {
  const db = await createTestDatabase();
  const shop = await newMerchant(db.database);
  const browser = await launchChromium();
  const platform = await servePlatform(db.database, db.url);
  const api =
    (world: "test" | "live"): ApiCaller =>
    async (method, path, body) => {
      const response = await fetch(`${platform.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${world === "live" ? shop.liveKey : shop.testKey}`,
          "content-type": "application/json",
          ...(method === "POST" ? { "idempotency-key": randomUUID() } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as never };
    };
  const world: TillWorld = {
    db,
    platform,
    browser,
    shop,
    api,
    close: async () => {
      await browser.close();
      // The platform serving now: a test may have served another build in its place.
      await world.platform.close();
      await db.close();
    },
  };
  return world;
}

/** Creates a product through the API (live key: the catalog is shared by both worlds). */
export async function addProduct(world: TillWorld, body: Record<string, unknown>): Promise<{ id: string }> {
  const created = await world.api("live")<{ id: string }>("POST", "/v1/products", body);
  if (created.status !== 201) throw new Error(`product not created: ${JSON.stringify(created.body)}`);
  return created.body;
}

/** Keystrokes 5 to 10 ms apart: a USB scanner's burst. */
const SCANNER_GAPS_MS = [5, 8, 10, 6, 9, 7];
/** A quick human: 150 ms between keys. */
const HUMAN_GAP_MS = 150;

/**
 * The till in a browser page, driven as a cashier and a keyboard-wedge scanner would. Keys go through
 * the DevTools protocol with their hardware time stamps set, so the page sees a scanner's 5–10 ms gaps
 * (or a person's 150 ms) exactly, however slowly a loaded machine delivers them.
 */
export class TillPage {
  readonly app: AppPage;
  private readonly cdp: CDPSession;
  private readonly baseUrl: string;
  /** The last key's time stamp (seconds): stamps only move forward. */
  private lastStampSeconds = 0;

  private constructor(app: AppPage, cdp: CDPSession, baseUrl: string) {
    this.app = app;
    this.cdp = cdp;
    this.baseUrl = baseUrl;
  }

  static async open(
    world: Pick<TillWorld, "browser"> & { platform: { baseUrl: string } },
    options: { viewport?: { width: number; height: number } } = {},
  ) {
    const app = await openAppPage(world.browser);
    if (options.viewport !== undefined) await app.page.setViewportSize(options.viewport);
    const cdp = await app.context.newCDPSession(app.page);
    return new TillPage(app, cdp, world.platform.baseUrl);
  }

  get page() {
    return this.app.page;
  }

  /**
   * Pairs this till with the owner's dashboard credentials (the only way a till signs in); resolves
   * when the scan box has the focus. Returns the ms it took.
   */
  async signIn(email: string, password = PASSWORD): Promise<number> {
    const { page } = this;
    await page.goto(`${this.baseUrl}/till`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    const started = performance.now();
    await page.getByRole("button", { name: "Pair this till", exact: true }).click();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
    return performance.now() - started;
  }

  /**
   * Pairs this till under `tillName` with the owner's credentials, in a shop with cashiers, and
   * `cashier` switches in with their PIN; resolves when the top bar names them.
   */
  async pairAndSwitchIn(email: string, cashier: { name: string; pin: string }, tillName = "Counter 1") {
    const { page } = this;
    await page.goto(`${this.baseUrl}/till`);
    await page.getByLabel("Till name").fill(tillName);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Pair this till", exact: true }).click();
    await page.getByRole("heading", { name: "Who is at the till?" }).waitFor();
    await page.getByRole("button", { name: cashier.name }).click();
    await page.getByLabel(`PIN for ${cashier.name}`).fill(cashier.pin);
    await page.getByLabel(`PIN for ${cashier.name}`).press("Enter");
    await page.getByText(`Cashier: ${cashier.name}`).waitFor();
  }

  /**
   * Opens this till's cash drawer in the current world from the Drawer screen (the float typed per
   * currency, blank is none), then goes back to Sell: a cash sale needs an open drawer.
   */
  async openDrawer(float: { USD?: string; ZWG?: string } = {}): Promise<void> {
    const { page } = this;
    await page.getByRole("link", { name: "Drawer" }).click();
    const form = page.getByRole("group", { name: "Opening float" });
    await form.waitFor();
    await form.getByLabel("USD").fill(float.USD ?? "");
    await form.getByLabel("ZWG").fill(float.ZWG ?? "");
    await page.getByRole("button", { name: "Open drawer" }).click();
    await page.getByRole("heading", { name: "Close the drawer" }).waitFor();
    await page.getByRole("link", { name: "Sell" }).click();
    await page.waitForFunction(() => document.activeElement?.id === "scan-input", undefined, { timeout: 30_000 });
  }

  /** A scanner reading `code`: its characters 5–10 ms apart, then Enter. */
  async scan(code: string, options: { end?: "Enter" | "Tab" } = {}): Promise<void> {
    let stamp = this.nextStamp();
    for (const [index, character] of [...code].entries()) {
      await this.key(character, stamp);
      stamp += (SCANNER_GAPS_MS[index % SCANNER_GAPS_MS.length] ?? 5) / 1000;
    }
    await this.key(options.end ?? "Enter", stamp);
  }

  /** A person typing `text` into whatever has focus, 150 ms between keys (Enter at the end when asked). */
  async typeSlowly(text: string, options: { enter?: boolean } = {}): Promise<void> {
    let stamp = this.nextStamp();
    for (const character of text) {
      await this.key(character, stamp);
      stamp += HUMAN_GAP_MS / 1000;
    }
    if (options.enter) await this.key("Enter", stamp);
  }

  /** The cart's lines as the screen shows them. */
  async cartLines(): Promise<{ name: string; qty: string; total: string }[]> {
    return this.page.locator(".cart-line").evaluateAll((lines) =>
      lines.map((line) => ({
        name: line.querySelector(".line-name")?.textContent ?? "",
        qty: (line.querySelector(".qty-input") as HTMLInputElement | null)?.value ?? "",
        total: line.querySelector(".line-total")?.textContent ?? "",
      })),
    );
  }

  async waitForCart(expected: { name: string; qty: string }[]): Promise<void> {
    await this.page.waitForFunction(
      (wanted) => {
        const lines = [...document.querySelectorAll(".cart-line")].map((line) => ({
          name: line.querySelector(".line-name")?.textContent ?? "",
          qty: (line.querySelector(".qty-input") as HTMLInputElement | null)?.value ?? "",
        }));
        return JSON.stringify(lines) === JSON.stringify(wanted);
      },
      expected,
      { timeout: 30_000 },
    );
  }

  /**
   * Gives a discount from the cart: on the line of `line` (a product's name) or, without it, on the
   * whole cart; a percentage or an amount as typed, with an optional reason.
   */
  async discount(given: { line?: string; percent?: string; amount?: string; reason?: string }): Promise<void> {
    const { page } = this;
    const title = given.line === undefined ? "Discount on the cart" : `Discount on ${given.line}`;
    await page.getByRole("button", { name: given.line === undefined ? "Discount cart" : title }).click();
    const dialog = page.getByRole("dialog", { name: title });
    if (given.amount !== undefined) {
      await dialog.getByLabel("Kind").selectOption("amount");
      await dialog.getByLabel("Amount").fill(given.amount);
    } else {
      await dialog.getByLabel("Percentage").fill(given.percent ?? "");
    }
    if (given.reason !== undefined) await dialog.getByLabel("Reason").fill(given.reason);
    await dialog.getByRole("button", { name: "Apply" }).click();
  }

  /** In the Pay step (Split payment), adds a tender with the touch controls: kind, currency, amount typed. */
  async addTender(tender: { kind: "Cash" | "Wallet"; currency: "USD" | "ZWG"; amount: string }): Promise<void> {
    const form = this.page.getByRole("dialog", { name: "Split payment" }).getByRole("form", { name: "Add a tender" });
    await form.getByRole("group", { name: "Tender" }).getByRole("button", { name: tender.kind }).click();
    await form.getByRole("group", { name: "Currency" }).getByRole("button", { name: tender.currency }).click();
    await form.getByLabel(`Amount (${tender.currency})`).fill(tender.amount);
    await form.getByRole("button", { name: "Add tender" }).click();
  }

  /** Pays the cart in cash: the amount typed as handed over, or Exact; then Complete sale. */
  async payCash(tendered?: string): Promise<void> {
    const { page } = this;
    await page.getByRole("button", { name: "Pay cash" }).click();
    const pay = page.getByRole("dialog", { name: "Pay cash" });
    if (tendered === undefined) await pay.getByRole("button", { name: "Exact" }).click();
    else await pay.getByLabel(/^Amount tendered/).fill(tendered);
    await pay.getByRole("button", { name: "Complete sale" }).click();
  }

  /**
   * Waits until the till's outbox has handed every cash sale to the server (the header's badge reads
   * "0 unsynced"): a cash sale shows as complete before the server has it.
   */
  async waitForSynced(): Promise<void> {
    await this.page.getByRole("button", { name: "0 unsynced", exact: true }).waitFor({ timeout: 30_000 });
  }

  /**
   * The receipt as it would print (the in-page sheet under the print media), its white space folded;
   * `ready`: a text of the sheet to wait for (the shop's profile is read when the receipt shows).
   */
  async printedReceipt(ready: string): Promise<string> {
    const { page } = this;
    const sheet = page.getByRole("article", { name: "Printed receipt", includeHidden: true });
    await page.evaluate(() => document.documentElement.classList.add("printing-receipt"));
    await page.emulateMedia({ media: "print" });
    await sheet.getByText(ready).first().waitFor();
    const text = ((await sheet.textContent()) ?? "").replace(/\s+/g, " ");
    await page.emulateMedia({ media: "screen" });
    await page.evaluate(() => document.documentElement.classList.remove("printing-receipt"));
    return text;
  }

  close() {
    return this.app.close();
  }

  private nextStamp(): number {
    this.lastStampSeconds = Math.max(Date.now() / 1000, this.lastStampSeconds + 1);
    return this.lastStampSeconds;
  }

  private async key(key: string, stampSeconds: number): Promise<void> {
    this.lastStampSeconds = Math.max(this.lastStampSeconds, stampSeconds);
    const description = describeKey(key);
    await this.cdp.send("Input.dispatchKeyEvent", { type: "keyDown", ...description, timestamp: stampSeconds });
    const { text: _text, ...up } = description;
    await this.cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...up, timestamp: stampSeconds + 0.001 });
  }
}

function describeKey(key: string): {
  key: string;
  code: string;
  text?: string;
  windowsVirtualKeyCode: number;
  modifiers?: number;
} {
  if (key === "Enter") return { key, code: "Enter", text: "\r", windowsVirtualKeyCode: 13 };
  if (key === "Tab") return { key, code: "Tab", windowsVirtualKeyCode: 9 };
  if (/^\d$/.test(key)) return { key, code: `Digit${key}`, text: key, windowsVirtualKeyCode: key.charCodeAt(0) };
  if (/^[a-z]$/i.test(key)) {
    const shift = key === key.toUpperCase() ? { modifiers: 8 } : {};
    return {
      key,
      code: `Key${key.toUpperCase()}`,
      text: key,
      windowsVirtualKeyCode: key.toUpperCase().charCodeAt(0),
      ...shift,
    };
  }
  if (key === " ") return { key, code: "Space", text: key, windowsVirtualKeyCode: 32 };
  return { key, code: "", text: key, windowsVirtualKeyCode: key.charCodeAt(0) };
}

/** Every request the page made went to the platform's own origin. */
export function externalRequests(till: TillPage, baseUrl: string): string[] {
  return till.app.requests.filter((url) => !url.startsWith(`${baseUrl}/`) && !url.startsWith("data:"));
}

/** The owner's dashboard session, outside the till's browser: what the owner does from the dashboard. */
export type OwnerCaller = <T = Record<string, unknown>>(
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: T }>;

export async function ownerSession(world: Pick<TillWorld, "platform" | "shop">): Promise<OwnerCaller> {
  const origin = world.platform.baseUrl;
  const signedIn = await fetch(`${origin}/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: world.shop.email, password: PASSWORD }),
  });
  if (signedIn.status !== 201) throw new Error(`owner not signed in: ${signedIn.status}`);
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const { csrf_token: csrf } = (await signedIn.json()) as { csrf_token: string };
  return async (method, path, body) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        cookie,
        origin,
        "pos-csrf-token": csrf,
        "pos-world": "test",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as never };
  };
}

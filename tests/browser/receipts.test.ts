import { randomUUID } from "node:crypto";
import { sql } from "../../src/platform/db/pool.ts";
import { servedBrowserWorld } from "../support/browser-world.ts";
import { newMerchant, type TestMerchant } from "../support/factories.ts";
import { MM_IN_POINTS, pageSizePoints } from "../support/pdf.ts";
import { openAppPage } from "../support/web-app.ts";

const world = servedBrowserWorld();
let shop: TestMerchant;

beforeAll(async () => {
  shop = await newMerchant(world.db.database);
});

async function post(path: string, body: unknown, merchant: TestMerchant = shop) {
  const response = await fetch(`${world.platform.baseUrl}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${merchant.liveKey}`,
      "idempotency-key": randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return response.json();
}

describe("public receipts", () => {
  test("a sale's and a return's receipt open without a session, show no personal data, print at 80 mm and A4", async () => {
    const sale = await post("/v1/sales", {
      tender: "cash",
      cashier: "Tendai Moyo",
      note: "Customer 0772 123 456",
      items: [
        { name: "Bread <loaf>", qty: 2, unit_cents: 120 },
        { name: "Milk", qty: 1, unit_cents: 95 },
      ],
    });
    expect(sale.receipt_url).toMatch(new RegExp(`^${world.platform.baseUrl}/receipts/[A-Za-z0-9_-]{32}$`));
    const returned = await post(`/v1/sales/${sale.id}/returns`, { items: [{ line: 1, qty: 1 }] });
    const returnUrl = returned.sale_return.receipt_url as string;
    expect(returnUrl).toMatch(/\/receipts\/[A-Za-z0-9_-]{32}$/);
    expect(returnUrl).not.toBe(sale.receipt_url);

    // Plain HTTP: no session, a strict CSP, no script, nothing personal.
    const plain = await fetch(sale.receipt_url);
    expect(plain.status).toBe(200);
    const csp = plain.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    // One script, this origin's file for the Print button: none inline, none from elsewhere.
    expect(csp).toContain("script-src 'self';");
    const html = await plain.text();
    expect(html.match(/<script[^>]*>/gi)).toEqual(['<script src="/receipts/assets/print.js" defer>']);
    expect(html).not.toMatch(/\son\w+=|style=/i);
    expect(html).toContain("Bread &lt;loaf&gt;");
    expect(html).toContain("USD 3.35");
    expect(html).toContain("Returned");
    expect(html).not.toContain("Tendai");
    expect(html).not.toContain("0772");
    expect((await fetch(`${world.platform.baseUrl}/receipts/${"A".repeat(32)}`)).status).toBe(404);

    // A browser with no cookies: only the platform's origin is asked, no console errors, prints to PDF.
    const context = await world.browser.newContext();
    const page = await context.newPage();
    const origins = new Set<string>();
    const problems: string[] = [];
    page.on("request", (request) => origins.add(new URL(request.url()).origin));
    page.on("console", (message) => {
      if (message.type() === "error") {
        problems.push(message.text());
      }
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(sale.receipt_url);
    expect(await page.locator("h1").textContent()).toBe(shop.merchant.name);
    expect(await page.locator("body").textContent()).toContain("Refunded (cash)");
    await page.emulateMedia({ media: "print" });
    const roll = await page.pdf({ preferCSSPageSize: true });
    const [rollWidth] = pageSizePoints(roll);
    expect(Math.abs(rollWidth - 80 * MM_IN_POINTS)).toBeLessThan(2);

    await page.goto(`${returnUrl}?paper=a4`);
    expect(await page.locator(".kind").textContent()).toContain("Return receipt");
    const a4 = await page.pdf({ preferCSSPageSize: true });
    const [a4Width, a4Height] = pageSizePoints(a4);
    expect(Math.abs(a4Width - 210 * MM_IN_POINTS)).toBeLessThan(2);
    expect(Math.abs(a4Height - 297 * MM_IN_POINTS)).toBeLessThan(2);
    expect(a4.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    expect([...origins]).toEqual([world.platform.baseUrl]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("the receipt's Print button opens the print dialog (window.print), with no inline script", async () => {
    const sale = await post("/v1/sales", { tender: "cash", items: [{ name: "Tea", qty: 1, unit_cents: 300 }] });
    const context = await world.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    // Headless Chromium has no print dialog: count the calls instead.
    await page.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await page.goto(sale.receipt_url);
    const print = page.getByRole("button", { name: "Print" });
    const box = await print.boundingBox();
    expect(box === null ? 0 : Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    await print.click();
    await page.waitForFunction(() => (window as unknown as { printed: number }).printed === 1);
    // Printing hides the button (screen only).
    await page.emulateMedia({ media: "print" });
    expect(await print.isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("a receipt a shop can hand over: its profile's name, address, VAT number and footer, cash tendered and change; axe-clean", async () => {
    const other = await newMerchant(world.db.database);
    await world.db.database.query(sql.unsafe`
      INSERT INTO shop_profiles (merchant_id, display_name, address, tax_number, receipt_footer, default_tax_rate_bp)
      VALUES (${other.merchant.id}, 'Moyo Groceries', ${"12 Samora Machel Ave\nHarare"}, '10023456',
        ${"Goods exchanged within 7 days\nwith this receipt."}, 1550)`);
    const sale = await post(
      "/v1/sales",
      { tender: "cash", items: [{ name: "Sugar", qty: 2, unit_cents: 185 }], tendered_cents: 500 },
      other,
    );
    expect(sale).toMatchObject({ total_cents: 370, tendered_cents: 500, change_cents: 130 });

    const app = await openAppPage(world.browser);
    await app.page.goto(sale.receipt_url);
    expect(await app.page.locator("h1").textContent()).toBe("Moyo Groceries");
    expect(await app.page.locator(".address").innerHTML()).toBe("12 Samora Machel Ave<br>Harare");
    expect(await app.page.locator(".tax-number").textContent()).toBe("VAT no. 10023456");
    expect(await app.page.locator(".tendered").textContent()).toBe("Cash tendered USD 5.00");
    expect(await app.page.locator(".change").textContent()).toBe("Change USD 1.30");
    expect(await app.page.locator("footer").innerHTML()).toBe(
      "<p>Goods exchanged within 7 days<br>with this receipt.</p>",
    );
    expect(await app.accessibilityViolations()).toEqual([]);

    // A return's receipt carries the same shop.
    const { sale_return: saleReturn } = await post(
      `/v1/sales/${sale.id}/returns`,
      { items: [{ line: 0, qty: 1 }] },
      other,
    );
    await app.page.goto(saleReturn.receipt_url);
    expect(await app.page.locator("h1").textContent()).toBe("Moyo Groceries");
    expect(await app.page.locator(".tax-number").textContent()).toBe("VAT no. 10023456");
    expect(await app.page.locator("footer").textContent()).toContain("Goods exchanged within 7 days");
    expect(await app.accessibilityViolations()).toEqual([]);
    expect(app.consoleErrors).toEqual([]);
    await app.close();
  });
});

/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";

const AXE_SOURCE = readFileSync(
  fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url)),
  "utf8",
);

export type AppPage = {
  page: Page;
  context: BrowserContext;
  /**
   * Console errors and uncaught exceptions (CSP violations among them). Chromium's own "Failed to load
   * resource" lines for 4xx answers are left out: those are in `refusals`, for the test to judge.
   */
  consoleErrors: string[];
  /** Every answer of 400 or more, as "status METHOD path". */
  refusals: string[];
  /** Every URL the page requested. */
  requests: string[];
  /**
   * Resolves once no API request of the page is in flight and the page has painted twice since (what
   * the last answer changed is on screen), or fails after 30 s. For measuring a screen whose parts load
   * without a "Loading…" of their own (the names of cashiers and tills beside their ids).
   */
  apiSettled: () => Promise<void>;
  /** axe-core's serious and critical violations on the page as it is now. */
  accessibilityViolations: () => Promise<string[]>;
  close: () => Promise<void>;
};

/**
 * A fresh browser context for a browser app, recording what the tests of every app assert: console
 * errors, every request (to prove none leaves the origin), and an axe-core check. axe is evaluated
 * through the DevTools protocol, which the page's strict CSP does not govern (an injected <script>
 * would be refused, as it should be).
 */
export async function openAppPage(browser: Browser): Promise<AppPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  const refusals: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      consoleErrors.push(message.text());
    }
  });
  page.on("response", (response) => {
    if (response.status() >= 400) {
      refusals.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    }
  });
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  page.on("request", (request) => requests.push(request.url()));
  const inFlight = new Set<Request>();
  const isApi = (request: Request) => new URL(request.url()).pathname.startsWith("/v1/");
  page.on("request", (request) => isApi(request) && inFlight.add(request));
  page.on("requestfinished", (request) => inFlight.delete(request));
  page.on("requestfailed", (request) => inFlight.delete(request));
  return {
    page,
    context,
    consoleErrors,
    refusals,
    requests,
    apiSettled: async () => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (inFlight.size === 0) {
          await page.evaluate(
            () => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))),
          );
          if (inFlight.size === 0) return;
        }
        if (Date.now() > deadline)
          throw new Error(`API requests still in flight: ${[...inFlight].map((r) => r.url())}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    accessibilityViolations: async () => {
      const loaded = await page.evaluate(() => "axe" in window);
      if (!loaded) {
        await page.evaluate(AXE_SOURCE);
      }
      const result = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResult> } }).axe;
        return axe.run(document);
      });
      return result.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
    },
    close: () => context.close(),
  };
}

type AxeResult = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };

/// <reference lib="dom" />
import type { Page } from "playwright-core";

/** The screen sizes the apps support (docs/dashboard.md, docs/till.md): a laptop, a counter tablet on its side, upright. */
export const SUPPORTED_SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 768, height: 1024 },
] as const;

/** The till's screens, by their links in its navigation (tests/browser/layout). */
export const TILL_SCREENS = ["Sell", "Stock", "Today", "Drawer", "This till"] as const;

/** The dashboard's screens, by their links in its navigation (tests/browser/layout). */
export const DASHBOARD_SCREENS = [
  "Home",
  "Payments",
  "Balance",
  "Payouts",
  "Sales",
  "Reports",
  "Shifts",
  "Cashiers",
  "Till devices",
  "Rate of the day",
  "Receipt & tax",
  "API keys",
  "Webhooks",
  "Events",
  "Settings",
] as const;

/**
 * Everything on the page that is outside its box, as "what: how": the page wider than the window,
 * an element reaching past the window's left or right edge, or a box whose content is wider than
 * the box (cut off, or behind a sideways scroll a person does not expect: the delivery log's Resend
 * column, "USD 428." in a card). Closed dialogs, hidden elements and visually-hidden text are left
 * out; a field's own text (an input's value) is the field's business.
 */
export function contentOutsideItsBox(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    // Only the outermost element of a problem is named: its rows and cells overflow with it.
    const reported: Element[] = [];
    const describe = (element: Element) => {
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      const classes = typeof element.className === "string" && element.className !== "" ? `.${element.className}` : "";
      return `${element.tagName.toLowerCase()}${classes} "${text}"`;
    };
    if (document.documentElement.scrollWidth > width + 1) {
      problems.push(`the page: ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
    }
    for (const element of document.querySelectorAll("body *")) {
      if (element.closest("dialog:not([open]), .visually-hidden, .skip-link, svg, option") !== null) continue;
      if (["INPUT", "SELECT", "TEXTAREA"].includes(element.tagName)) continue;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") continue;
      if (reported.some((outer) => outer.contains(element))) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.right > width + 1 || box.left < -1) {
        problems.push(`${describe(element)}: spans ${Math.round(box.left)}–${Math.round(box.right)} px of ${width}`);
        reported.push(element);
        continue;
      }
      if (element.scrollWidth > element.clientWidth + 1 && style.overflowX !== "visible") {
        problems.push(`${describe(element)}: ${element.scrollWidth} px of content in ${element.clientWidth} px`);
        reported.push(element);
      }
    }
    return problems;
  });
}

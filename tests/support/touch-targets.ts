/// <reference lib="dom" />
import type { Page } from "playwright-core";

/** The least a control a finger uses may measure, both ways (CSS px; WCAG 2.5.5, Apple's and Google's guides). */
export const TOUCH_TARGET_MIN_PX = 44;

/**
 * Every visible control smaller than a fingertip, as "what: width×height": buttons, links, fields,
 * selects, checkboxes, radios and `[role=button]`. A checkbox or radio inside its label (or named by a
 * `label[for]`) is measured by the label's box, the thing a finger taps. Left out, as WCAG's
 * target-size rule leaves them: a link inside a sentence (its line sets its height), closed dialogs,
 * hidden and visually-hidden elements, and the skip link (off screen until the keyboard reaches it).
 */
export function smallTouchTargets(page: Page, minimum = TOUCH_TARGET_MIN_PX): Promise<string[]> {
  return page.evaluate((minimum) => {
    const controls = document.querySelectorAll(
      "button, a[href], input:not([type=hidden]), select, textarea, [role=button]",
    );
    const problems: string[] = [];
    const describe = (element: Element) => {
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 30);
      const name = element.getAttribute("aria-label") ?? element.getAttribute("name") ?? "";
      const type = element.getAttribute("type");
      return `${element.tagName.toLowerCase()}${type === null ? "" : `[${type}]`} "${text || name}"`;
    };
    const inSentence = (element: Element) => {
      const parent = element.parentElement;
      if (element.tagName !== "A" || parent === null || !["P", "LI", "SPAN", "DD", "SMALL"].includes(parent.tagName)) {
        return false;
      }
      const own = (element.textContent ?? "").trim().length;
      return (parent.textContent ?? "").trim().length > own + 1;
    };
    for (const element of controls) {
      if (element.closest("dialog:not([open]), .visually-hidden, .skip-link, [hidden]") !== null) continue;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") continue;
      if (inSentence(element)) continue;
      let target: Element = element;
      if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
        target =
          element.closest("label") ??
          (element.id === "" ? null : document.querySelector(`label[for="${CSS.escape(element.id)}"]`)) ??
          element;
      }
      const box = target.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.width < minimum - 0.5 || box.height < minimum - 0.5) {
        problems.push(`${describe(element)}: ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return problems;
  }, minimum);
}

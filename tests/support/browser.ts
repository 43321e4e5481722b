import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium, headless, driven by playwright-core (never a browser a tool downloads). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

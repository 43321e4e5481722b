import { loadConfig } from "../platform/config.ts";
import { allows, principals } from "../platform/http/access.ts";
import type { AnyRoute } from "../platform/http/route.ts";
import { apiRoutes } from "./api-routes.ts";
import { createGateways } from "./gateways.ts";

/**
 * The route table of `docs/security.md`: every merchant route and which principal may call it, drawn
 * from the routes' declared access, between two marker lines of that page. `npm run security:write`
 * rewrites it; tests/platform/access-matrix.test.ts fails while the page differs, and also calls every
 * route as every principal to check that the declarations are what the API enforces.
 */
export const SECURITY_DOC = "docs/security.md";
export const TABLE_START = "<!-- route-access:start (npm run security:write) -->";
export const TABLE_END = "<!-- route-access:end -->";

const headings: Record<(typeof principals)[number], string> = {
  test_key: "test key",
  live_key: "live key",
  owner: "owner",
  owner_stale_step_up: "owner, no step-up",
  till: "till",
  cashier: "cashier",
  manager: "manager",
};

/** One row per merchant route (public and operator routes are listed after it by name). */
export function accessTable(routes: readonly AnyRoute[]): string {
  const lines = [
    `| route | ${principals.map((principal) => headings[principal]).join(" | ")} |`,
    `|---|${principals.map(() => ":-:").join("|")}|`,
  ];
  for (const route of routes) {
    if (typeof route.auth !== "object") continue;
    const access = route.auth;
    const cells = principals.map((principal) => (allows(access, principal) ? "✓" : "·"));
    lines.push(`| \`${route.method.toUpperCase()} ${route.path}\` | ${cells.join(" | ")} |`);
  }
  const named = (auth: "none" | "admin") =>
    routes
      .filter((route) => route.auth === auth)
      .map((route) => `\`${route.method.toUpperCase()} ${route.path}\``)
      .join(", ");
  lines.push("", `Public (no principal): ${named("none")}.`, "", `Operator token only: ${named("admin")}.`);
  return `${lines.join("\n")}\n`;
}

/** The page with its table replaced by the one the routes declare now. */
export function securityDocWithTable(page: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) {
    throw new Error(`${SECURITY_DOC} lacks its table markers`);
  }
  const config = loadConfig({});
  return `${page.slice(0, start + TABLE_START.length)}\n${accessTable(apiRoutes(createGateways(config)))}${page.slice(end)}`;
}

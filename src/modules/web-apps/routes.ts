import { z } from "zod";
import { ApiError, notFound } from "../../platform/errors.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { builtAssets } from "./assets.ts";

/**
 * The shell of a browser app: scripts and styles only from this origin's files (no inline script or
 * style attribute can run), API calls only to this origin, and no framing.
 */
const SHELL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SHELL_HEADERS = {
  // The shell names the current hashed files: revalidate it every time.
  "Cache-Control": "no-cache",
  "Content-Security-Policy": SHELL_CSP,
  "Referrer-Policy": "same-origin",
};

/**
 * The till's service worker: revalidated on every check (a new build must reach the browser, which then
 * installs it), allowed to control /till itself although its folder is /till/, and limited to fetching
 * this origin.
 */
const SERVICE_WORKER_HEADERS = {
  "Cache-Control": "no-cache",
  "Service-Worker-Allowed": "/till",
  "Content-Security-Policy": "default-src 'none'; connect-src 'self'",
};

const notBuilt = () =>
  new ApiError({
    status: 503,
    type: "api_error",
    code: "app_not_built",
    message: "The browser apps are not built: run `make build` (or `node web/build.ts`).",
  });

function shellRoute(app: string, path: string, operationId: string, params?: z.ZodObject): AnyRoute {
  return defineRoute({
    method: "get",
    path,
    operationId,
    summary: `The ${app} app (its HTML shell; the app routes inside the browser)`,
    tags: ["Apps"],
    auth: "none",
    ...(params === undefined ? {} : { request: { params } }),
    responses: { 200: { description: "The app's HTML shell.", contentType: "text/html" } },
    handler: async ({ config }) => {
      const shell = builtAssets(config.webBuildDirectory).shell(app) ?? throwError(notBuilt());
      return { contentType: "text/html; charset=utf-8", payload: shell, headers: SHELL_HEADERS };
    },
  });
}

// A page name or an object's id (a payment's detail: /dashboard/payments/pay_…).
const segment = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const webAppRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/assets/:file",
    operationId: "getAppAsset",
    summary: "A content-hashed script or style of the browser apps (cached for a year: a change is a new name)",
    tags: ["Apps"],
    auth: "none",
    request: { params: z.strictObject({ file: z.string().regex(/^[\w.-]{1,100}$/) }) },
    responses: { 200: { description: "The file.", contentType: "text/javascript" } },
    handler: async ({ params, config }) => {
      const file = builtAssets(config.webBuildDirectory).file(params.file) ?? throwError(notFound("No such asset."));
      return {
        contentType: file.contentType,
        payload: file.contents,
        headers: { "Cache-Control": "public, max-age=31536000, immutable" },
      };
    },
  }),
  shellRoute("dashboard", "/dashboard", "getDashboard"),
  shellRoute("dashboard", "/dashboard/:page", "getDashboardPage", z.strictObject({ page: segment })),
  shellRoute(
    "dashboard",
    "/dashboard/:section/:page",
    "getDashboardSectionPage",
    z.strictObject({ section: segment, page: segment }),
  ),
  shellRoute("till", "/till", "getTill"),
  // Before /till/:page, which would otherwise take "sw.js" for a page name (and refuse its dot).
  defineRoute({
    method: "get",
    path: "/till/sw.js",
    operationId: "getTillServiceWorker",
    summary: "The till's service worker (caches the till's page and files so it opens offline; never the API)",
    tags: ["Apps"],
    auth: "none",
    responses: { 200: { description: "The service worker script.", contentType: "text/javascript" } },
    handler: async ({ config }) => {
      const script = builtAssets(config.webBuildDirectory).serviceWorker("till") ?? throwError(notBuilt());
      return { contentType: "text/javascript; charset=utf-8", payload: script, headers: SERVICE_WORKER_HEADERS };
    },
  }),
  shellRoute("till", "/till/:page", "getTillPage", z.strictObject({ page: segment })),
];

function throwError(error: ApiError): never {
  throw error;
}

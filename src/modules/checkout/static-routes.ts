import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";

/**
 * Browser files under /static: the checkout page's script and style, and pos.js for merchants' pages.
 * Read once at start-up (the list is closed: nothing else on disk is reachable).
 */
const webDirectory = fileURLToPath(new URL("../../../web/static/", import.meta.url));
const files = {
  "pos.js": "text/javascript; charset=utf-8",
  "checkout.js": "text/javascript; charset=utf-8",
  "checkout.css": "text/css; charset=utf-8",
} as const;
type FileName = keyof typeof files;
const contents = new Map<FileName, Buffer>(
  (Object.keys(files) as FileName[]).map((name) => [name, readFileSync(`${webDirectory}${name}`)]),
);

export const staticRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/static/:file",
    operationId: "getStaticFile",
    summary: "pos.js (POS.pay and drop-in buttons) and the hosted checkout's script and style",
    tags: ["Checkout"],
    auth: "none",
    request: { params: z.strictObject({ file: z.enum(Object.keys(files) as [FileName, ...FileName[]]) }) },
    responses: { 200: { description: "The file.", contentType: "text/javascript" } },
    handler: async ({ params }) => ({
      contentType: files[params.file],
      payload: contents.get(params.file) ?? Buffer.alloc(0),
      headers: {
        // Short, revalidated caching: merchants' pages load pos.js by a fixed URL.
        "Cache-Control": "public, max-age=300, must-revalidate",
        // pos.js is loaded by merchants' pages on other origins.
        "Cross-Origin-Resource-Policy": "cross-origin",
      },
    }),
  }),
];

import { z } from "zod";
import type { Database } from "../../platform/db/pool.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { qrPngOfText } from "../../platform/qr/index.ts";
import { merchants } from "../merchants/index.ts";
import { getShopProfile } from "../shop-profile/index.ts";
import * as queries from "./queries.ts";
import {
  type Paper,
  RECEIPT_PRINT_SCRIPT,
  RECEIPT_STYLES,
  type ReceiptShop,
  type ReceiptStyle,
  receiptNotFoundPage,
  returnReceiptPage,
  saleReceiptPage,
} from "./receipt-page.ts";
import { receiptUrl } from "./receipt-token.ts";
import * as returnQueries from "./return-queries.ts";
import { presentTenders } from "./tender-presenters.ts";
import { selectTendersOfSales } from "./tender-queries.ts";

/**
 * No inline script, no other origin, no framing: the page only needs its own stylesheets, its print
 * button's script file (and an empty data: icon, so the browser does not ask for /favicon.ico).
 */
const PAGE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex",
};

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** The shop as its receipts show it: its shop profile, the account's name until it names itself. */
async function receiptShopOf(database: Database, merchantId: string): Promise<ReceiptShop> {
  const [merchant, profile] = await Promise.all([
    merchants.getMerchant(database, merchantId),
    getShopProfile(database, merchantId),
  ]);
  return {
    name: profile.display_name ?? merchant.name,
    timezone: merchant.timezone,
    address: profile.address,
    taxNumber: profile.tax_number,
    taxNumberLabel: profile.default_tax_rate_bp > 0 ? "VAT no." : "Tax no.",
    footer: profile.receipt_footer,
  };
}

async function receiptPage(database: Database, token: string, paper: Paper): Promise<string | null> {
  if (!TOKEN.test(token)) {
    return null;
  }
  const sale = await queries.selectSaleByReceiptToken(database, token);
  if (sale !== null) {
    const [shop, returns, tenders] = await Promise.all([
      receiptShopOf(database, sale.merchant_id),
      returnQueries.selectReturnsOfSales(database, sale.merchant_id, [sale.id]),
      selectTendersOfSales(database, sale.merchant_id, [sale.id]),
    ]);
    return saleReceiptPage(shop, sale, presentTenders(sale, tenders), returns, paper);
  }
  const saleReturn = await returnQueries.selectReturnByReceiptToken(database, token);
  if (saleReturn === null) {
    return null;
  }
  return returnReceiptPage(await receiptShopOf(database, saleReturn.merchant_id), saleReturn, paper);
}

/** Whether a sale or a return has this receipt token (the QR of an unknown link is not drawn). */
async function receiptExists(database: Database, token: string): Promise<boolean> {
  if (!TOKEN.test(token)) {
    return false;
  }
  return queries.selectReceiptTokenExists(database, token);
}

export const receiptRoutes: AnyRoute[] = [
  // Before the stylesheets' route, whose :file would take this path too.
  defineRoute({
    method: "get",
    path: "/receipts/assets/print.js",
    operationId: "getReceiptPrintScript",
    summary: "The receipt pages' script: its Print button opens the browser's print dialog",
    tags: ["Sales"],
    auth: "none",
    responses: { 200: { description: "The script.", contentType: "text/javascript" } },
    handler: async () => ({
      contentType: "text/javascript; charset=utf-8",
      payload: RECEIPT_PRINT_SCRIPT,
      headers: { "Cache-Control": "public, max-age=300, must-revalidate" },
    }),
  }),
  defineRoute({
    method: "get",
    path: "/receipts/assets/:file",
    operationId: "getReceiptStyle",
    summary: "The receipt pages' stylesheets (screen, 80 mm and A4 print)",
    tags: ["Sales"],
    auth: "none",
    request: {
      params: z.strictObject({ file: z.enum(Object.keys(RECEIPT_STYLES) as [ReceiptStyle, ...ReceiptStyle[]]) }),
    },
    responses: { 200: { description: "The stylesheet.", contentType: "text/css" } },
    handler: async ({ params }) => ({
      contentType: "text/css; charset=utf-8",
      payload: RECEIPT_STYLES[params.file],
      headers: { "Cache-Control": "public, max-age=300, must-revalidate" },
    }),
  }),
  defineRoute({
    method: "get",
    path: "/receipts/:token/qr.png",
    operationId: "getReceiptQr",
    summary: "The receipt link as a QR code (PNG), for the till to show the customer",
    tags: ["Sales"],
    auth: "none",
    request: { params: z.strictObject({ token: z.string().max(100) }) },
    responses: {
      200: { description: "A 1-bit PNG of the receipt page's URL.", contentType: "image/png" },
      404: { description: "No receipt has this token (the receipt's HTML 404 page).", contentType: "text/html" },
    },
    handler: async ({ params, config, database }) => {
      const url = (await receiptExists(database, params.token)) ? receiptUrl(config.publicBaseUrl, params.token) : null;
      if (url === null) {
        return {
          status: 404,
          contentType: "text/html; charset=utf-8",
          headers: PAGE_HEADERS,
          payload: receiptNotFoundPage(),
        };
      }
      // Drawn on each request (a millisecond): the link is the capability, so no shared cache keeps it.
      return {
        contentType: "image/png",
        headers: { "Cache-Control": "private, max-age=3600", "Referrer-Policy": "no-referrer" },
        payload: qrPngOfText(url, { moduleSizePx: 6, quietZoneModules: 4 }),
      };
    },
  }),
  defineRoute({
    method: "get",
    path: "/receipts/:token",
    operationId: "getReceiptPage",
    summary: "The public receipt of a sale or a return (HTML; the unguessable token is the capability)",
    tags: ["Sales"],
    auth: "none",
    request: {
      params: z.strictObject({ token: z.string().max(100) }),
      query: z.strictObject({
        paper: z.enum(["80mm", "a4"]).default("80mm").meta({ description: "Print layout: 80 mm roll or A4." }),
      }),
    },
    responses: {
      200: { description: "The receipt page.", contentType: "text/html" },
      404: { description: "No receipt has this token.", contentType: "text/html" },
    },
    handler: async ({ params, query, database }) => {
      const page = await receiptPage(database, params.token, query.paper);
      return {
        status: page === null ? 404 : 200,
        contentType: "text/html; charset=utf-8",
        headers: PAGE_HEADERS,
        payload: page ?? receiptNotFoundPage(),
      };
    },
  }),
];

/**
 * Generated from docs/openapi.json by openapi-typescript (scripts/openapi-types): do not edit. Run
 * `npm run openapi:write` after a change to the API and commit the result; the suite fails while stale.
 */
export interface paths {
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant profile of the calling key */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API keys of the calling key's world, newest first, revoked ones included (never their secrets) */
        get: operations["listApiKeys"];
        put?: never;
        /** Mint a secret key (dashboard session only); the secret is in this answer and never again */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shop_profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the shop prints on receipts (name, address, tax number, footer) and how it prices tax */
        get: operations["getShopProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the receipt header and footer, the tax number, the tax mode or the default tax rate (the owner) */
        patch: operations["updateShopProfile"];
        trace?: never;
    };
    "/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current session, its user and merchant, and its CSRF token */
        get: operations["getSession"];
        put?: never;
        /** Sign in with the dashboard user's email and password; sets the session cookie */
        post: operations["signIn"];
        /** Sign out: the session is revoked on the server and the cookie cleared */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/step_up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Type the password again in this dashboard session: step-up actions are then allowed for 5 minutes (never at a till) */
        post: operations["stepUpSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password (the current one required): every other session is signed out and every till device unpaired */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's live sessions (device, address, last seen) */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        /** Sign out everywhere: every session of the user (this one too) ends and every till device is unpaired */
        delete: operations["signOutEverywhere"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Sign one of the user's sessions out */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/two_factor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start turning two-factor sign-in on: a new TOTP secret (otpauth URI, base32, QR code), pending until confirmed */
        post: operations["startTwoFactorEnrolment"];
        /** Turn two-factor sign-in off: the secret and the recovery codes are deleted */
        delete: operations["disableTwoFactor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/two_factor/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn two-factor sign-in on with a code from the pending secret; answers 10 one-time recovery codes, once */
        post: operations["confirmTwoFactor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/till_devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant's paired and revoked till devices (owner's dashboard session) */
        get: operations["listTillDevices"];
        put?: never;
        /** Pair a till device (owner's dashboard session, fresh password): its token is answered once */
        post: operations["pairTillDevice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/till_devices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unpair a till device: its token is refused and its sessions end at once */
        delete: operations["revokeTillDevice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A paired till opens a till session with its device token (no password); sets the session cookie */
        post: operations["signInDevice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{id}/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace a key with a new one; the old secret works for 0 s, 1 h, 24 h or 7 days more (session only) */
        post: operations["rollApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api_keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a secret key of the caller's world at once (a live key from a session: step-up) */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cashiers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant's cashiers (dashboard or till session) */
        get: operations["listCashiers"];
        put?: never;
        /** Create a cashier (role cashier or manager) with a 4–6 digit PIN (stored hashed; dashboard session only) */
        post: operations["createCashier"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cashiers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename a cashier or change their role (dashboard session only) */
        patch: operations["updateCashier"];
        trace?: never;
    };
    "/v1/cashiers/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a cashier: no more switching in, and a till it is switched in on stops acting as it at once */
        post: operations["disableCashier"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cashiers/{id}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unlock a cashier locked by wrong PINs (dashboard session only) */
        post: operations["unlockCashier"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/cashier": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Switch a cashier in on this till session by PIN; the session's requests then act as the cashier */
        post: operations["switchCashier"];
        /** Nobody switched in on this till session (the PIN screen) */
        delete: operations["switchCashierOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/cashier/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The cashier switched in on this till changes their own PIN (the current PIN is checked first) */
        post: operations["changeOwnPin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/manager_approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A manager's PIN at this till approves one request of an action (return, cash pay-out, drawer close with a difference, product change): send the token in Pos-Manager-Approval within 120 s */
        post: operations["approveAsManager"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit_log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who did what on the account (sign-ins, password changes, keys minted, rolled, revoked), newest first */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The key's world's payments, newest first */
        get: operations["listPayments"];
        put?: never;
        /** Create a payment: a 9-digit code, QR, deep link, USSD and hosted checkout, valid 10 minutes */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A payment; while pending, refreshed from the gateway (throttled by the service: poll freely) */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a pending payment: the gateway voids its code where it can, a wallet sale is cancelled; idempotent */
        post: operations["cancelPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/refund_late": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refund a late payment: to the payer's wallet where the gateway allows, else flagged for a cash refund; idempotent */
        post: operations["refundLatePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search and list products in name order (q: name, sku or barcode substring; barcode: exact) */
        get: operations["listProducts"];
        put?: never;
        /** Create a product (shared by the test and live worlds); an opening stock_qty is journaled */
        post: operations["createProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A product, active or not */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change catalog fields; active false soft-deletes, true restores (on-hand changes via /v1/stock) */
        patch: operations["updateProduct"];
        trace?: never;
    };
    "/v1/products.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every product, active and archived, as CSV (columns: id, name, sku, barcode, category, price, currency, track_stock, stock_qty, low_stock_at, tax_rate, active) */
        get: operations["exportProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products/import/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dry run of a CSV import: what it would create and update, and every row's errors; writes nothing */
        post: operations["previewProductImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create or update products from CSV (by sku, else barcode): every row, or none when any has an error */
        post: operations["importProducts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stock/receive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add received units to on-hand (live keys; test keys only journal) as a receive move */
        post: operations["receiveStock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stock/adjust": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change on-hand by a signed, non-zero delta (live keys; test keys only journal) as an adjust move */
        post: operations["adjustStock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stock/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a stocktake: the delta to the counted quantity is computed under a lock and journaled */
        post: operations["countStock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stock/moves": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The stock journal of the key's world, newest first */
        get: operations["listStockMoves"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stock/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** On-hand and valuation at current prices per product, totals per currency, the low-stock list */
        get: operations["getStockReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/reports/{dimension}.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Gross, discounts, refunds, tax and net of completed sales by day, item, category, cashier, till or tender, per currency, as CSV */
        get: operations["getSalesBreakdownCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/reports/{dimension}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Gross, discounts, refunds, tax and net of completed sales by day, item, category, cashier, till or tender, per currency (default: today in the merchant's time zone) */
        get: operations["getSalesBreakdown"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The key's world's sales, newest first (without embedded payments) */
        get: operations["listSales"];
        put?: never;
        /** Ring up a sale: cash completes at once; wallet is pending with an embedded payment */
        post: operations["createSale"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/{id}/tenders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a tender to a pending split sale: cash may complete it; a wallet tender gets its payment */
        post: operations["addSaleTender"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/{id}/returns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Take back some or all lines of a completed sale: stock comes back, the refund is paid in cash */
        post: operations["createSaleReturn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Takings of completed sales: totals, by tender, best sellers (default: today, merchant's time zone) */
        get: operations["getSalesReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a pending wallet or split sale: its wallet payments cancelled (codes voided where the gateway can), what a split sale's tenders paid given back in cash from its till's drawer; idempotent */
        post: operations["cancelSale"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sales/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A sale; a pending wallet sale refreshes its payment and is finalised when it has ended; wait_seconds waits for that end */
        get: operations["getSale"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/assets/print.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The receipt pages' script: its Print button opens the browser's print dialog */
        get: operations["getReceiptPrintScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The receipt pages' stylesheets (screen, 80 mm and A4 print) */
        get: operations["getReceiptStyle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/{token}/qr.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The receipt link as a QR code (PNG), for the till to show the customer */
        get: operations["getReceiptQr"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public receipt of a sale or a return (HTML; the unguessable token is the capability) */
        get: operations["getReceiptPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shifts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The world's shifts, newest first, with their cash per currency */
        get: operations["listShifts"];
        put?: never;
        /** Open a till's cash drawer shift with its counted float per currency (one open shift per till) */
        post: operations["openShift"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shifts/{id}/cash_moves": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shift's cash moves, oldest first: float, cash sales, refunds, pay-ins and pay-outs (signed) */
        get: operations["listShiftCashMoves"];
        put?: never;
        /** A pay-in or pay-out of cash, with its reason, in an open shift */
        post: operations["recordShiftCashMove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shifts/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close a shift with the cash counted per currency: expected, counted and over/short per currency */
        post: operations["closeShift"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shifts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shift with its cash per currency (expected live while open; frozen with counts once closed) */
        get: operations["getShift"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shifts/{id}/z_report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shift's Z report: its cash per currency, the till's and everyone's names, their counts, and the drawer's moves */
        get: operations["getShiftZReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exchange_rates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rates set, newest first (who set each and when) */
        get: operations["listExchangeRates"];
        put?: never;
        /** Set the shop's rate of the day for a pair of currencies (a new rate; earlier ones stay as history) */
        post: operations["setExchangeRate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/exchange_rates/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rate in force for each pair the shop has set (the newest of each) */
        get: operations["currentExchangeRates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The key's world's payouts, newest first */
        get: operations["listPayouts"];
        put?: never;
        /** Pay out to the merchant's verified wallet: debited now, submitted and confirmed by the processor */
        post: operations["createPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A payout */
        get: operations["getPayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/withdrawal_codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue a cash-out code and QR; the balance is credited when the customer claims it */
        post: operations["createWithdrawalCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/withdrawal_codes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A withdrawal code; while pending, refreshed from the gateway (throttled: poll freely) */
        get: operations["getWithdrawalCode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/withdrawal_codes/{id}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test world only: the customer claims the code now (instant settle); 403 for live codes */
        post: operations["claimTestWithdrawalCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/bank_changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send change to a customer's wallet, at once, from the balance (at most USD 5.00) */
        post: operations["createBankChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/bank_changes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A change-to-wallet */
        get: operations["getBankChange"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/account/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The holder of a wallet (263…) and its account numbers, from the wallet network */
        get: operations["lookupAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/utilities/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The utility catalogue: providers, products, account formats, amounts, additional_data, fees */
        get: operations["listUtilityProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/utilities/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pay a utility from the balance (token, airtime, subscription, bill); the commission is credited */
        post: operations["createUtilityPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/utilities/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A utility payment and its receipt */
        get: operations["getUtilityPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Available balance per currency in the key's world */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant's ledger entries, newest first */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/statement.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** CSV statement with opening, running and closing balance per currency */
        get: operations["getStatementCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Events oldest first after `since`, optionally of one type or family or about one payment; none ever skipped */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The key's world's webhook endpoints, newest first (secrets are never shown again) */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Register a webhook endpoint for the key's world; its secret is returned only here */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Deactivate a webhook endpoint: it receives nothing more, pending retries included */
        delete: operations["deactivateWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An endpoint's deliveries with their attempt log, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/roll_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret; the previous one keeps signing too during the overlap */
        post: operations["rollWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Attempt again now every dead delivery of the endpoint created since a time (at most 30 days ago) */
        post: operations["recoverWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.test event to this endpoint only (it is not in the event feed) */
        post: operations["sendWebhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An event's deliveries (one per endpoint) with their attempt log, newest first */
        get: operations["listEventWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with its attempt log */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Attempt a delivery again now, also a dead or succeeded one */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The hosted checkout page (HTML): code, QR, deep link, USSD, countdown; follows the payment */
        get: operations["getCheckoutPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The payment's status for the hosted checkout page (refreshed from the gateway, throttled) */
        get: operations["getCheckoutStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payer cancels: the payment is cancelled (its code voided where the gateway can); idempotent */
        post: operations["cancelCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{id}/mockpay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test payments only: settle now, or expire with {outcome: 'expired'} */
        post: operations["mockpayCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/static/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** pos.js (POS.pay and drop-in buttons) and the hosted checkout's script and style */
        get: operations["getStaticFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A content-hashed script or style of the browser apps (cached for a year: a change is a new name) */
        get: operations["getAppAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard app (its HTML shell; the app routes inside the browser) */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard app (its HTML shell; the app routes inside the browser) */
        get: operations["getDashboardPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/{section}/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard app (its HTML shell; the app routes inside the browser) */
        get: operations["getDashboardSectionPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/till": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The till app (its HTML shell; the app routes inside the browser) */
        get: operations["getTill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/till/sw.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The till's service worker (caches the till's page and files so it opens offline; never the API) */
        get: operations["getTillServiceWorker"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/till/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The till app (its HTML shell; the app routes inside the browser) */
        get: operations["getTillPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a merchant with its dashboard user and one test and one live key */
        post: operations["adminCreateMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/merchants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a merchant */
        get: operations["adminGetMerchant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/merchants/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate, suspend or set a merchant pending */
        post: operations["adminSetMerchantStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/merchants/{id}/timezone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set the IANA time zone of the merchant's day (the sales report's default period) */
        post: operations["adminSetMerchantTimezone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/merchants/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a merchant's API keys (never their secrets) */
        get: operations["adminListKeys"];
        put?: never;
        /** Mint a new secret key for the test or live world */
        post: operations["adminCreateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/merchants/{id}/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a secret key */
        delete: operations["adminRevokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/merchants/{id}/payout_destination": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set the merchant's payout wallet and its verification state */
        post: operations["adminSetPayoutDestination"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/payouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get any merchant's payout */
        get: operations["adminGetPayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/payouts/{id}/reverse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reverse a confirmed payout: its amount returns to the merchant's balance (payout.reversed) */
        post: operations["adminReversePayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        MerchantProfile: {
            id: string;
            /** @constant */
            object: "merchant";
            livemode: boolean;
            name: string;
            /** @enum {string} */
            type: "business" | "individual" | "agent";
            /** @enum {string} */
            status: "pending" | "active" | "suspended";
            fee_bps: number;
            fee_fixed_cents: number;
            payout_destination: {
                msisdn: string | null;
                verified: boolean;
            };
            /** @description IANA time zone of the merchant's day (sales reports). */
            timezone: string;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The one error shape of the API. */
        ErrorEnvelope: {
            error: {
                /** @enum {string} */
                type: "invalid_request" | "auth_error" | "insufficient_funds" | "rate_limited" | "api_error" | "gateway_error";
                code: string;
                message: string;
            };
        };
        ApiKey: {
            id: string;
            /** @constant */
            object: "api_key";
            livemode: boolean;
            /** @enum {string} */
            prefix: "sk_test_" | "sk_live_";
            last4: string;
            /** Format: date-time */
            created_at: string;
            /** @description Coarse: updated at most once a minute; null if never used. */
            last_used_at: string | null;
            /** @description When a rolled key stops working; else null. */
            expires_at: string | null;
            revoked_at: string | null;
            /** @description Only in the response that creates the key. */
            secret_key?: string;
        };
        ShopProfile: {
            /** @constant */
            object: "shop_profile";
            /** @description The name printed on receipts (the account's name unless set). */
            display_name: string;
            address: string | null;
            tax_number: string | null;
            receipt_footer: string | null;
            /** @enum {string} */
            tax_mode: "inclusive" | "exclusive";
            default_tax_rate_bp: number;
            discount_limit_bp: number;
            updated_at: string | null;
        };
        Session: {
            id: string;
            /** @constant */
            object: "session";
            /** @enum {string} */
            kind: "dashboard" | "till";
            user: {
                id: string;
                email: string;
            };
            merchant: {
                id: string;
                name: string;
                /** @enum {string} */
                status: "pending" | "active" | "suspended";
            };
            csrf_token: string;
            created_at: string;
            expires_at: string;
            idle_expires_at: string | null;
            step_up_expires_at: string | null;
            cashier_id: string | null;
            cashier_role: ("cashier" | "manager") | null;
            device_id: string | null;
            two_factor_enabled: boolean;
        };
        SessionListItem: {
            id: string;
            /** @constant */
            object: "session";
            /** @enum {string} */
            kind: "dashboard" | "till";
            device: string;
            client_address: string | null;
            created_at: string;
            last_seen_at: string;
            expires_at: string;
            current: boolean;
        };
        TwoFactorEnrolment: {
            /** @constant */
            object: "two_factor_enrolment";
            otpauth_uri: string;
            secret: string;
            qr_png_data_url: string;
        };
        TwoFactorEnabled: {
            /** @constant */
            object: "two_factor";
            /** @constant */
            enabled: true;
            recovery_codes: string[];
        };
        TillDevice: {
            id: string;
            /** @constant */
            object: "till_device";
            name: string;
            /** @enum {string} */
            status: "paired" | "revoked";
            /** Format: date-time */
            created_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
        };
        RolledApiKey: {
            previous: components["schemas"]["ApiKey"];
            key: components["schemas"]["ApiKey"];
        };
        Cashier: {
            id: string;
            /** @constant */
            object: "cashier";
            name: string;
            /** @enum {string} */
            role: "cashier" | "manager";
            /** @enum {string} */
            status: "active" | "locked" | "disabled";
            failed_pin_attempts: number;
            locked_at: string | null;
            disabled_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        ManagerApproval: {
            /** @constant */
            object: "manager_approval";
            id: string;
            /** @description Send it in the Pos-Manager-Approval header of the approved request. */
            token: string;
            manager_id: string;
            /** @enum {string} */
            action: "return" | "cash_pay_out" | "shift_close" | "product_update" | "exchange_rate" | "discount";
            /** Format: date-time */
            expires_at: string;
        };
        AuditEntry: {
            id: string;
            /** @constant */
            object: "audit_entry";
            /** @enum {string} */
            action: "session.signed_in" | "session.sign_in_failed" | "session.signed_out" | "session.revoked" | "session.stepped_up" | "session.step_up_failed" | "session.device_opened" | "session.signed_out_everywhere" | "user.password_changed" | "user.password_change_failed" | "session.two_factor_failed" | "user.two_factor_enrolment_started" | "user.two_factor_enabled" | "user.two_factor_disabled" | "user.two_factor_recovery_code_used" | "api_key.created" | "api_key.rolled" | "api_key.revoked" | "till_device.paired" | "till_device.revoked" | "webhook_endpoint.created" | "webhook_endpoint.secret_rolled" | "webhook_endpoint.deactivated" | "manager.approved" | "exchange_rate.set" | "shop_profile.updated";
            actor: {
                type: string;
                id: string | null;
                /** @description Who it is: the owner's email, a cashier's or till's name, or `API key …last4`; null if unknown. */
                name: string | null;
            };
            livemode: boolean | null;
            target: {
                type: string;
                id: string;
            } | null;
            client_address: string | null;
            user_agent: string | null;
            created_at: string;
        };
        Payment: {
            id: string;
            /** @constant */
            object: "payment";
            livemode: boolean;
            /** @enum {string} */
            status: "pending" | "paid" | "expired" | "failed" | "cancelled";
            amount_cents: number;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            fee_cents: number;
            narration: string | null;
            merchant_ref: string | null;
            metadata: {
                [key: string]: unknown;
            };
            reference: string;
            code: string;
            qr_png_data_url: string;
            deep_link: string;
            ussd: string;
            checkout_url: string;
            /** Format: date-time */
            expires_at: string;
            paid_at: string | null;
            failure_reason: string | null;
            success_url: string | null;
            cancel_url: string | null;
            cancelled_at: string | null;
            /** @description Money that arrived after the payment was cancelled or expired: credited to the balance, the sale left cancelled. `refund`: `due` (POST /v1/payments/:id/refund_late), `wallet` (sent back to the payer's wallet) or `cash` (to hand back in cash). */
            late_payment: {
                /** Format: date-time */
                paid_at: string;
                payer_msisdn: string | null;
                /** @enum {string} */
                refund: "due" | "wallet" | "cash";
                refund_reference: string | null;
            } | null;
            /** Format: date-time */
            created_at: string;
        };
        Product: {
            id: string;
            /** @constant */
            object: "product";
            name: string;
            sku: string | null;
            barcode: string | null;
            category: string | null;
            price_cents: number | null;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            track_stock: boolean;
            /** @description On-hand (live inventory; may be negative after overselling); null when untracked. */
            stock_qty: number | null;
            low_stock_at: number;
            low_stock: boolean;
            /** @description Null: the shop's default tax rate. */
            tax_rate_bp: number | null;
            active: boolean;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Last catalog change (stock moves do not change it).
             */
            updated_at: string;
        };
        ProductImportPreview: {
            /** @constant */
            object: "product_import_preview";
            /** @description Product rows in the file (the header not counted). */
            rows: number;
            created: number;
            updated: number;
            /** @description Rows that name a product and change nothing. */
            unchanged: number;
            errors: {
                /** @description The row as a spreadsheet numbers it: the header is row 1. */
                row: number;
                /** @description The column, or null for the whole row. */
                column: string | null;
                code: string;
                message: string;
            }[];
        };
        ProductImport: {
            /** @constant */
            object: "product_import";
            /** @description Product rows in the file (the header not counted). */
            rows: number;
            created: number;
            updated: number;
            /** @description Rows that name a product and change nothing. */
            unchanged: number;
        };
        /** @description The journaled move and the product as it now stands. */
        StockOperation: {
            move: components["schemas"]["StockMove"];
            product: components["schemas"]["Product"];
        };
        StockMove: {
            id: string;
            /** @constant */
            object: "stock_move";
            /** @description Only live moves change on-hand. */
            livemode: boolean;
            product_id: string;
            /** @enum {string} */
            kind: "receive" | "sale" | "adjust" | "count" | "return";
            qty_delta: number;
            /** @description On-hand after the move (unchanged by test moves). */
            stock_qty_after: number;
            note: string | null;
            actor: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
            };
            sale_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        StockReport: {
            /** @constant */
            object: "stock_report";
            /** Format: date-time */
            generated_at: string;
            totals: {
                /** @enum {string} */
                currency: "USD" | "ZWG";
                products: number;
                units: number;
                value_cents: number;
                unpriced_products: number;
            }[];
            low_stock: {
                product_id: string;
                name: string;
                sku: string | null;
                /** @enum {string} */
                currency: "USD" | "ZWG";
                stock_qty: number;
                low_stock_at: number;
                low_stock: boolean;
                price_cents: number | null;
                /** @description On-hand × current price; 0 when on-hand is negative; null when unpriced. */
                value_cents: number | null;
            }[];
            low_stock_count: number;
            products: {
                data: {
                    product_id: string;
                    name: string;
                    sku: string | null;
                    /** @enum {string} */
                    currency: "USD" | "ZWG";
                    stock_qty: number;
                    low_stock_at: number;
                    low_stock: boolean;
                    price_cents: number | null;
                    /** @description On-hand × current price; 0 when on-hand is negative; null when unpriced. */
                    value_cents: number | null;
                }[];
                has_more: boolean;
                next_cursor: string | null;
            };
        };
        SalesBreakdown: {
            /** @constant */
            object: "sales_breakdown";
            livemode: boolean;
            /** @enum {string} */
            dimension: "day" | "item" | "category" | "cashier" | "till" | "tender";
            timezone: string;
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            rows: {
                /** @description day: YYYY-MM-DD (merchant's time zone); item: product id (null for an ad hoc line); category: the product's category now (null: none); cashier: who recorded the sale (cashier, till device, dashboard user or API key id); till: till id (null: no till); tender: cash or wallet. */
                key: string | null;
                /** @description The key as people read it: names as they are now. */
                label: string;
                /** @enum {string} */
                currency: "USD" | "ZWG";
                /** @description Completed sales in the row; for item and category, units sold (before returns). */
                count: number;
                /** @description What the sales came to before discounts (tax included). */
                gross_cents: number;
                /** @description Discounts given on those sales. */
                discount_cents: number;
                /** @description Refunds paid in the period (by return time). */
                refund_cents: number;
                /** @description Tax on those sales (included in gross and net). */
                tax_cents: number;
                /** @description gross − discounts − refunds: the takings kept, tax included. */
                net_cents: number;
            }[];
            /** @description Per currency (both listed unless `currency` is given): the sum of the rows. */
            totals: {
                /** @enum {string} */
                currency: "USD" | "ZWG";
                /** @description Completed sales in the row; for item and category, units sold (before returns). */
                count: number;
                /** @description What the sales came to before discounts (tax included). */
                gross_cents: number;
                /** @description Discounts given on those sales. */
                discount_cents: number;
                /** @description Refunds paid in the period (by return time). */
                refund_cents: number;
                /** @description Tax on those sales (included in gross and net). */
                tax_cents: number;
                /** @description gross − discounts − refunds: the takings kept, tax included. */
                net_cents: number;
            }[];
        };
        Sale: {
            id: string;
            /** @constant */
            object: "sale";
            livemode: boolean;
            /** @enum {string} */
            status: "pending" | "completed" | "cancelled";
            /**
             * @description split: made with `tenders` (even one).
             * @enum {string}
             */
            tender: "cash" | "wallet" | "split";
            /** @description The tenders, oldest first (a sale of one tender shows it as one entry). */
            tenders: {
                /** @enum {string} */
                kind: "cash" | "wallet";
                /** @enum {string} */
                currency: "USD" | "ZWG";
                amount_cents: number;
                /** @description What it counts for, in the basket's currency. */
                credit_cents: number;
                /** @description Its credit less the change it gave (basket currency). */
                contributed_cents: number;
                /** @description What it paid in its own currency net of the change it gave (its amount less that change when the change was in its currency, else in proportion to what it contributed, rounded half up; 0 unless paid): what a full return or a cancel gives back for it. */
                net_amount_cents: number;
                /** @description The rate used (null in the basket's currency). */
                exchange_rate_id: string | null;
                other_per_base_micros: number | null;
                /**
                 * @description paid; pending (a wallet tender not paid yet); failed (its payment expired or failed: it paid nothing).
                 * @enum {string}
                 */
                status: "paid" | "pending" | "failed";
                /** @description A wallet tender's payment (null for cash). */
                payment_id: string | null;
            }[];
            /** @description What the paid tenders contributed (basket currency). */
            paid_cents: number;
            /** @description total_cents − paid_cents, never below 0. */
            due_cents: number;
            /** @description The change given, in the currency it was given in (null: none). */
            change: {
                /** @enum {string} */
                currency: "USD" | "ZWG";
                amount_cents: number;
            } | null;
            total_cents: number;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            items: {
                /** @description Null for an ad hoc line. */
                product_id: string | null;
                name: string;
                qty: number;
                unit_cents: number;
                /** @description The line's gross: qty × unit_cents, before discounts. */
                line_total_cents: number;
                /** @description What came off the line: its own discount and its share of the cart's. */
                discount_cents?: number;
                discount_reason?: string;
                /** @description The line after discounts (in the prices' terms: with tax when tax-inclusive). */
                net_cents?: number;
                /** @description The line's tax rate in basis points. */
                tax_rate_bp?: number;
            }[];
            /** @description Line and cart discounts together. */
            discount_cents: number;
            /** @description The cart discount's reason. */
            discount_reason: string | null;
            /** @description The tax the total holds (tax-inclusive prices) or adds (tax-exclusive). */
            tax_cents: number;
            /** @description The tax per rate, lowest rate first. */
            taxes: {
                rate_bp: number;
                /** @description What the tax is charged on, without the tax. */
                taxable_cents: number;
                tax_cents: number;
            }[];
            cashier: string | null;
            note: string | null;
            payment_id: string | null;
            /** @description Wallet sales, on create and GET by id (null in lists and for cash); a split sale shows its newest wallet tender's payment (its code and QR while it is pending). */
            payment: components["schemas"]["Payment"] | null;
            actor: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
            };
            /** @description The till's own id for the sale, when it gave one. */
            client_sale_id: string | null;
            till_id: string | null;
            /** @description The drawer shift a cash sale's money went into. */
            shift_id: string | null;
            /** @description Cash handed over, when the till said (null: wallet, or not given). */
            tendered_cents: number | null;
            /** @description Change given: tendered_cents − total_cents (null when tendered_cents is). */
            change_cents: number | null;
            /** @description What came back, oldest first. */
            returns: components["schemas"]["SaleReturn"][];
            /** @description The public receipt page (no sign-in, no personal data; null for sales made before receipts). */
            receipt_url: string | null;
            /**
             * Format: date-time
             * @description When the sale was rung up at the counter (default: created_at).
             */
            taken_at: string;
            completed_at: string | null;
            cancelled_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        SaleReturn: {
            id: string;
            /** @constant */
            object: "sale_return";
            livemode: boolean;
            sale_id: string;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            /** @description Cash paid back: the returned units at the sale's prices. */
            refund_cents: number;
            /**
             * @description Always cash for now, whatever the sale's tender.
             * @constant
             */
            refund_tender: "cash";
            /** @description The refund per tender paid back, each in the tender's currency (a split sale's refund is spread over its tenders, the last taken first; a sale of one tender has one share, refund_cents in its currency). */
            refunds: {
                /** @enum {string} */
                currency: "USD" | "ZWG";
                amount_cents: number;
                /** @description The sale's tender (0-based) this share pays back. */
                tender_index: number;
            }[];
            items: {
                line: number;
                product_id: string | null;
                name: string;
                qty: number;
                unit_cents: number;
                line_total_cents: number;
            }[];
            till_id: string | null;
            shift_id: string | null;
            reason: string | null;
            actor: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
            };
            /** @description The return's public receipt page. */
            receipt_url: string | null;
            /** Format: date-time */
            created_at: string;
        };
        SaleReturnResult: {
            sale_return: components["schemas"]["SaleReturn"];
            sale: components["schemas"]["Sale"];
        };
        SalesReport: {
            /** @constant */
            object: "sales_report";
            livemode: boolean;
            timezone: string;
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            totals: {
                count: number;
                by_currency: {
                    /** @enum {string} */
                    currency: "USD" | "ZWG";
                    count: number;
                    total_cents: number;
                }[];
            };
            /** @description Cash, wallet and split (sales made with tenders), in the baskets' currencies. */
            by_tender: {
                /** @enum {string} */
                tender: "cash" | "wallet" | "split";
                count: number;
                by_currency: {
                    /** @enum {string} */
                    currency: "USD" | "ZWG";
                    count: number;
                    total_cents: number;
                }[];
            }[];
            top_products: {
                product_id: string | null;
                name: string;
                /** @enum {string} */
                currency: "USD" | "ZWG";
                units: number;
                revenue_cents: number;
            }[];
            /** @description The period's gross, discounts, refunds (paid in the period, also of earlier sales), tax and net per currency, cash and wallet: the totals of GET /v1/sales/reports/:dimension for the same period. */
            net: {
                by_currency: {
                    /** @enum {string} */
                    currency: "USD" | "ZWG";
                    /** @description Completed sales in the row; for item and category, units sold (before returns). */
                    count: number;
                    /** @description What the sales came to before discounts (tax included). */
                    gross_cents: number;
                    /** @description Discounts given on those sales. */
                    discount_cents: number;
                    /** @description Refunds paid in the period (by return time). */
                    refund_cents: number;
                    /** @description Tax on those sales (included in gross and net). */
                    tax_cents: number;
                    /** @description gross − discounts − refunds: the takings kept, tax included. */
                    net_cents: number;
                }[];
            };
        };
        Shift: {
            id: string;
            /** @constant */
            object: "shift";
            livemode: boolean;
            till_id: string;
            /** @enum {string} */
            status: "open" | "closed";
            /** @description One entry per currency, USD and ZWG, always both. */
            cash: {
                /** @enum {string} */
                currency: "USD" | "ZWG";
                float_cents: number;
                cash_sales_cents: number;
                cash_sales_count: number;
                /** @description Cash paid back for returns (a positive amount out). */
                refunds_cents: number;
                refunds_count: number;
                pay_ins_cents: number;
                /** @description A positive amount out. */
                pay_outs_cents: number;
                /** @description float + cash sales + pay-ins − refunds − pay-outs (frozen at close). */
                expected_cents: number;
                /** @description Null while open. */
                counted_cents: number | null;
                /** @description counted − expected: positive over, negative short; null while open. */
                over_short_cents: number | null;
            }[];
            opened_by: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
            };
            closed_by: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
            } | null;
            close_note: string | null;
            /** Format: date-time */
            opened_at: string;
            closed_at: string | null;
        };
        ShiftCashMoveResult: {
            cash_move: components["schemas"]["ShiftCashMove"];
            shift: components["schemas"]["Shift"];
        };
        ShiftCashMove: {
            id: string;
            /** @constant */
            object: "shift_cash_move";
            shift_id: string;
            /** @enum {string} */
            kind: "float" | "sale" | "return" | "pay_in" | "pay_out" | "change" | "sale_cancel";
            /** @enum {string} */
            currency: "USD" | "ZWG";
            /** @description Signed: into the drawer positive, out negative. */
            amount_cents: number;
            reason: string | null;
            sale_id: string | null;
            return_id: string | null;
            actor: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        ZReport: {
            /** @constant */
            object: "z_report";
            shift: components["schemas"]["Shift"];
            till: {
                id: string;
                /** @description The paired till's name; null for a till that is not paired. */
                name: string | null;
            };
            opened_by: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
                name: string;
            };
            closed_by: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
                name: string;
            } | null;
            /** @description Everyone who opened, closed or moved cash in the shift, with their cash sales and refunds. */
            cashiers: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
                name: string;
                cash_sales_count: number;
                refunds_count: number;
            }[];
            /** @description The drawer's moves other than cash sales (float, pay-ins, pay-outs, refunds), oldest first, at most 200; cash sales are counted in `shift.cash`. */
            cash_moves: {
                id: string;
                /** @constant */
                object: "shift_cash_move";
                shift_id: string;
                /** @enum {string} */
                kind: "float" | "sale" | "return" | "pay_in" | "pay_out" | "change" | "sale_cancel";
                /** @enum {string} */
                currency: "USD" | "ZWG";
                /** @description Signed: into the drawer positive, out negative. */
                amount_cents: number;
                reason: string | null;
                sale_id: string | null;
                return_id: string | null;
                actor: {
                    /** @enum {string} */
                    type: "api_key" | "dashboard_user" | "till_user";
                    id: string;
                    name: string;
                };
                /** Format: date-time */
                created_at: string;
            }[];
            /** @description True when the shift has more such moves than listed. */
            cash_moves_has_more: boolean;
            /** @description The shift's completed sales per currency: their count, discounts, and tax per rate. */
            sales: {
                /** @enum {string} */
                currency: "USD" | "ZWG";
                sales_count: number;
                discount_cents: number;
                tax_cents: number;
                /** @description Tax per rate over the shift's sales, lowest rate first. */
                taxes: {
                    rate_bp: number;
                    taxable_cents: number;
                    tax_cents: number;
                }[];
            }[];
        };
        ExchangeRate: {
            id: string;
            /** @constant */
            object: "exchange_rate";
            livemode: boolean;
            /** @enum {string} */
            base: "USD" | "ZWG";
            /** @enum {string} */
            other: "USD" | "ZWG";
            /** @description The rate as set, without trailing zeros. */
            rate: string;
            /** @description The rate in millionths: cents of `other` one cent of `base` is worth × 1,000,000. */
            other_per_base_micros: number;
            set_by: {
                /** @enum {string} */
                type: "api_key" | "dashboard_user" | "till_user";
                id: string;
            };
            created_at: string;
        };
        Payout: {
            id: string;
            /** @constant */
            object: "payout";
            livemode: boolean;
            /** @enum {string} */
            status: "requested" | "submitted" | "confirmed" | "failed" | "reversed";
            amount_cents: number;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            /** @description The merchant's verified payout wallet (MSISDN). */
            destination_account: string;
            /** @description The wallet holder, as the gateway names it. */
            destination_name: string | null;
            reference: string;
            failure_reason: string | null;
            submitted_at: string | null;
            confirmed_at: string | null;
            failed_at: string | null;
            reversed_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        WithdrawalCode: {
            id: string;
            /** @constant */
            object: "withdrawal_code";
            livemode: boolean;
            /** @enum {string} */
            status: "pending" | "redeemed" | "expired";
            amount_cents: number;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            /** @description Nine digits the customer enters (or scans) in their wallet app. */
            code: string;
            /** @description PNG of the deep link, as a data URL. */
            qr_png_data_url: string;
            deep_link: string;
            reference: string;
            /** Format: date-time */
            expires_at: string;
            redeemed_at: string | null;
            customer_msisdn: string | null;
            /** Format: date-time */
            created_at: string;
        };
        BankChange: {
            id: string;
            /** @constant */
            object: "bank_change";
            livemode: boolean;
            /** @enum {string} */
            status: "processing" | "completed" | "failed";
            amount_cents: number;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            destination_msisdn: string;
            /** @description Who received it: the wallet holder's name. */
            recipient_name: string | null;
            narration: string | null;
            reference: string;
            gateway_reference: string | null;
            failure_reason: string | null;
            completed_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        AccountLookup: {
            /** @constant */
            object: "account_lookup";
            livemode: boolean;
            msisdn: string;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            /** @description The wallet holder's name. */
            name: string;
            accounts: {
                account_number: string;
                /** @enum {string} */
                currency: "USD" | "ZWG";
                /** @constant */
                type: "wallet";
            }[];
        };
        UtilityProvider: {
            id: string;
            /** @constant */
            object: "utility_provider";
            name: string;
            /** @enum {string} */
            category: "electricity" | "airtime" | "tv" | "water";
            currencies: ("USD" | "ZWG")[];
            destination_account: {
                label: string;
                pattern: string;
                example: string;
            };
            products: ({
                code: string;
                name: string;
                /** @constant */
                pricing: "variable";
                min_cents: {
                    [key: string]: number;
                };
                max_cents: {
                    [key: string]: number;
                };
            } | {
                code: string;
                name: string;
                /** @constant */
                pricing: "fixed";
                price_cents: {
                    [key: string]: number;
                };
                unit: string;
            })[];
            /** @description JSON Schema of additional_data. */
            additional_data_schema: {
                [key: string]: unknown;
            };
            fee: {
                bps: number;
                fixed_cents: {
                    [key: string]: number;
                };
            };
            commission_bps: number;
        };
        UtilityPayment: {
            id: string;
            /** @constant */
            object: "utility_payment";
            livemode: boolean;
            /** @enum {string} */
            status: "processing" | "completed" | "failed";
            provider: string;
            provider_product: string;
            /** @description What the customer buys (the provider receives this). */
            amount_cents: number;
            /** @description The platform's fee, debited with the amount. */
            fee_cents: number;
            /** @description The provider's commission, credited to the balance. */
            commission_cents: number;
            /** @description amount_cents + fee_cents. */
            total_debited_cents: number;
            /** @description total_debited_cents − commission_cents. */
            net_cost_cents: number;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            destination_account: string;
            narration: string | null;
            additional_data: {
                [key: string]: unknown;
            };
            reference: string;
            receipt: {
                provider_reference: string;
                /** @description Prepaid electricity: the 20-digit token. */
                token: string | null;
                details: {
                    [key: string]: string | number | null;
                };
            } | null;
            failure_reason: string | null;
            completed_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Balance: {
            /** @constant */
            object: "balance";
            livemode: boolean;
            available: {
                /** @enum {string} */
                currency: "USD" | "ZWG";
                amount_cents: number;
            }[];
        };
        LedgerEntry: {
            id: string;
            /** @constant */
            object: "ledger_entry";
            livemode: boolean;
            transaction_id: string;
            /** @enum {string} */
            entry_type: "payment" | "fee" | "payout" | "withdrawal" | "bank_change" | "utility_payment" | "commission" | "reversal" | "adjustment";
            /** @enum {string} */
            currency: "USD" | "ZWG";
            /** @description Signed: credits are positive, debits negative. */
            amount_cents: number;
            balance_after_cents: number;
            description: string;
            source: {
                type: string;
                id: string;
                /** @description The payment's merchant_ref when the source is a payment; else null. */
                merchant_ref: string | null;
            };
            reverses_transaction_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Event: {
            id: string;
            /** @enum {string} */
            type: "payment.paid" | "payment.expired" | "payment.failed" | "payment.cancelled" | "payment.late_paid" | "payout.confirmed" | "payout.failed" | "payout.reversed" | "withdrawal.redeemed" | "bank_change.completed" | "bank_change.failed" | "utility_payment.completed" | "utility_payment.failed" | "sale.completed" | "sale.returned" | "shift.opened" | "shift.closed" | "webhook.test";
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            data: {
                [key: string]: unknown;
            };
        };
        CreatedWebhookEndpoint: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            livemode: boolean;
            url: string;
            event_types: string[];
            active: boolean;
            secret_last4: string;
            /** @description Until then deliveries are signed with the previous secret too (after a roll); else null. */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            deactivated_at: string | null;
            /** @description whsec_…; returned only in this response. */
            secret: string;
        };
        WebhookEndpoint: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            livemode: boolean;
            url: string;
            event_types: string[];
            active: boolean;
            secret_last4: string;
            /** @description Until then deliveries are signed with the previous secret too (after a roll); else null. */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            deactivated_at: string | null;
        };
        WebhookDelivery: {
            id: string;
            /** @constant */
            object: "webhook_delivery";
            livemode: boolean;
            endpoint_id: string;
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "dead" | "canceled";
            attempt_count: number;
            next_attempt_at: string | null;
            delivered_at: string | null;
            /** Format: date-time */
            created_at: string;
            attempts: {
                attempt: number;
                /** Format: date-time */
                started_at: string;
                /** @description Latency: from the request's start to the response's end. */
                duration_ms: number;
                response_status: number | null;
                /** @description The first 512 bytes of the response body (UTF-8); null without a response. */
                response_excerpt: string | null;
                error: string | null;
                succeeded: boolean;
            }[];
        };
        RolledWebhookEndpoint: {
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            livemode: boolean;
            url: string;
            event_types: string[];
            active: boolean;
            secret_last4: string;
            /** @description Until then deliveries are signed with the previous secret too (after a roll); else null. */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            deactivated_at: string | null;
            /** @description The new whsec_…; returned only in this response. */
            secret: string;
        };
        WebhookRecovery: {
            /** @constant */
            object: "webhook_recovery";
            endpoint_id: string;
            /** Format: date-time */
            since: string;
            /** @description Dead deliveries scheduled for an attempt now. */
            recovered_count: number;
            /** @description More remain (the batch is bounded): call again with the same since. */
            has_more: boolean;
        };
        CheckoutStatus: {
            /** @enum {string} */
            status: "pending" | "paid" | "expired" | "failed" | "cancelled";
            /** Format: date-time */
            expires_at: string;
            success_url: string | null;
            cancel_url: string | null;
        };
        CreatedMerchant: {
            id: string;
            /** @constant */
            object: "merchant";
            name: string;
            /** @enum {string} */
            type: "business" | "individual" | "agent";
            /** @enum {string} */
            status: "pending" | "active" | "suspended";
            fee_bps: number;
            fee_fixed_cents: number;
            payout_destination: {
                msisdn: string | null;
                verified: boolean;
            };
            /** @description IANA time zone of the merchant's day (sales reports). */
            timezone: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            email: string;
            /** @description Shown once. */
            test_secret_key: string;
            /** @description Shown once. */
            live_secret_key: string;
        };
        AdminMerchant: {
            id: string;
            /** @constant */
            object: "merchant";
            name: string;
            /** @enum {string} */
            type: "business" | "individual" | "agent";
            /** @enum {string} */
            status: "pending" | "active" | "suspended";
            fee_bps: number;
            fee_fixed_cents: number;
            payout_destination: {
                msisdn: string | null;
                verified: boolean;
            };
            /** @description IANA time zone of the merchant's day (sales reports). */
            timezone: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        AdminPayout: {
            id: string;
            /** @constant */
            object: "payout";
            livemode: boolean;
            /** @enum {string} */
            status: "requested" | "submitted" | "confirmed" | "failed" | "reversed";
            amount_cents: number;
            /** @enum {string} */
            currency: "USD" | "ZWG";
            /** @description The merchant's verified payout wallet (MSISDN). */
            destination_account: string;
            /** @description The wallet holder, as the gateway names it. */
            destination_name: string | null;
            reference: string;
            failure_reason: string | null;
            submitted_at: string | null;
            confirmed_at: string | null;
            failed_at: string | null;
            reversed_at: string | null;
            /** Format: date-time */
            created_at: string;
            merchant_id: string;
            reversal_reason: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Merchant profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MerchantProfile"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    livemode: boolean;
                };
            };
        };
        responses: {
            /** @description The key with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `step_up_required`: a live key needs the password entered in the last 5 minutes. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getShopProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The profile (defaults until the owner sets one). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShopProfile"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateShopProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The shop's name on receipts; empty or null: the account's name. */
                    display_name?: string | null;
                    /** @description Up to 300 characters; line breaks kept. */
                    address?: string | null;
                    /** @description The VAT or tax number printed on receipts. */
                    tax_number?: string | null;
                    /** @description A closing line or two (returns policy, thanks). */
                    receipt_footer?: string | null;
                    /**
                     * @description `inclusive`: product prices include tax (the usual shelf price); `exclusive`: tax is added on top.
                     * @enum {string}
                     */
                    tax_mode?: "inclusive" | "exclusive";
                    /** @description The tax rate of a product that names none, in basis points (15.5 % = 1550). */
                    default_tax_rate_bp?: number;
                    /** @description The largest discount a cashier gives without a manager, in basis points of the sale's gross (10 % = 1000; 10000, the default: no limit). Above it a till with cashiers needs a manager's approval. */
                    discount_limit_bp?: number;
                };
            };
        };
        responses: {
            /** @description The profile as it now stands; audited as `shop_profile.updated`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShopProfile"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    /**
                     * @default dashboard
                     * @enum {string}
                     */
                    kind?: "dashboard" | "till";
                    otp?: string;
                };
            };
        };
        responses: {
            /** @description The new session. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: unknown email or wrong password (the same answer for both). With two-factor sign-in on: `otp_required` (the password was right; send `otp`) or `invalid_otp` (wrong, or already used). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `too_many_sign_in_attempts`: too many failures for the account or the address; see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        signed_out: true;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    stepUpSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    otp?: string;
                };
            };
        };
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_password`: the password typed again is wrong; with two-factor sign-in on (step-up), `otp_required` or `invalid_otp`. The session stays signed in. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `too_many_sign_in_attempts`: too many failures for the account or the address; see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description Changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        password_changed: true;
                        revoked_sessions: number;
                        unpaired_devices: number;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_password`: the password typed again is wrong; with two-factor sign-in on (step-up), `otp_required` or `invalid_otp`. The session stays signed in. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `too_many_sign_in_attempts`: too many failures for the account or the address; see Retry-After. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live sessions, most recently seen first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SessionListItem"][];
                        /** @constant */
                        has_more: false;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    signOutEverywhere: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out everywhere; the cookie is cleared. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        signed_out: true;
                        revoked_sessions: number;
                        unpaired_devices: number;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        revoked: true;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startTwoFactorEnrolment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pending secret; answered only here. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorEnrolment"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `two_factor_already_enabled`: turn it off first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    disableTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Off. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        object: "two_factor";
                        /** @constant */
                        enabled: false;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `two_factor_not_enabled`: it was not on. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    confirmTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description On; the recovery codes are never shown again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorEnabled"];
                };
            };
            /** @description `invalid_otp`: not the code the authenticator app shows now. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `two_factor_not_pending`: no enrolment started (or already on). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTillDevices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The devices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TillDevice"][];
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session; `step_up_required` (pairing: type the password again first). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pairTillDevice: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @description true when the browser pairing is the till itself: the token is set as an HttpOnly, SameSite=Strict cookie sent only to POST /v1/session/device, and is not in the answer (page scripts never see it).
                     * @default false
                     */
                    keep_in_cookie?: boolean;
                };
            };
        };
        responses: {
            /** @description The device and its token (`tdv_…`, shown only here, absent with keep_in_cookie; stored as SHA-256). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        object: "till_device";
                        name: string;
                        /** @enum {string} */
                        status: "paired" | "revoked";
                        /** Format: date-time */
                        created_at: string;
                        last_used_at: string | null;
                        revoked_at: string | null;
                        token?: string;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session; `step_up_required` (pairing: type the password again first). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeTillDevice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked device. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TillDevice"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session; `step_up_required` (pairing: type the password again first). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    signInDevice: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The token; when absent, the device cookie set by pairing with keep_in_cookie. */
                    device_token?: string;
                };
            };
        };
        responses: {
            /** @description The till session. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        object: "session";
                        /** @constant */
                        kind: "till";
                        csrf_token: string;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `device_invalid`: unknown or revoked device token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rollApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expires_in_seconds: 0 | 3600 | 86400 | 604800;
                };
            };
        };
        responses: {
            /** @description The old key (with its end) and the new one with its secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolledApiKey"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `step_up_required`: a live key needs the password entered in the last 5 minutes. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listCashiers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All cashiers, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Cashier"][];
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createCashier: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description 4 to 6 digits. */
                    pin: string;
                    /**
                     * @description `manager`: their PIN approves returns, cash pay-outs and a drawer closed with a difference.
                     * @default cashier
                     * @enum {string}
                     */
                    role?: "cashier" | "manager";
                };
            };
        };
        responses: {
            /** @description The cashier (never its PIN). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cashier"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `cashier_name_taken`: the shop has a cashier of that name (case and outer spaces aside). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateCashier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /**
                     * @description `manager`: their PIN approves returns, cash pay-outs and a drawer closed with a difference.
                     * @enum {string}
                     */
                    role?: "cashier" | "manager";
                };
            };
        };
        responses: {
            /** @description The cashier. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cashier"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    disableCashier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cashier. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cashier"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    unlockCashier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cashier. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cashier"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`: only the owner's dashboard session. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    switchCashier: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cashier_id: string;
                    /** @description 4 to 6 digits. */
                    pin: string;
                };
            };
        };
        responses: {
            /** @description The cashier now switched in. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cashier"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_pin` (counted towards the lock). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `cashier_locked`, `cashier_disabled`, `principal_not_allowed` (only a till). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    switchCashierOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    changeOwnPin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 4 to 6 digits. */
                    current_pin: string;
                    /** @description 4 to 6 digits. */
                    new_pin: string;
                };
            };
        };
        responses: {
            /** @description The cashier (never its PIN). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cashier"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_pin` (counted towards the lock before it is checked). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `cashier_required` (nobody switched in), `cashier_locked`, `cashier_disabled`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    approveAsManager: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The approving manager. */
                    cashier_id: string;
                    /** @description 4 to 6 digits. */
                    pin: string;
                    /**
                     * @description The one kind of request the approval is for.
                     * @enum {string}
                     */
                    action: "return" | "cash_pay_out" | "shift_close" | "product_update" | "exchange_rate" | "discount";
                };
            };
        };
        responses: {
            /** @description The approval and its token (shown once, stored hashed). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ManagerApproval"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_pin` (counted towards the lock before it is checked). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_a_manager`, `cashier_locked`, `cashier_disabled`, `principal_not_allowed`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 25). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries, both worlds. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditEntry"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                status?: "pending" | "paid" | "expired" | "failed" | "cancelled";
                merchant_ref?: string;
                /** @description Created at or after. */
                from?: string;
                /** @description Created before. */
                to?: string;
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payments. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Payment"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Amount in integer cents, positive. */
                    amount_cents: number;
                    /**
                     * @description USD (default) or ZWG.
                     * @default USD
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                    narration?: string;
                    merchant_ref?: string;
                    /** @description Up to 20 keys (≤ 40 characters); values: strings (≤ 500), numbers, booleans or null. */
                    metadata?: {
                        [key: string]: string | number | boolean | null;
                    };
                    /** Format: uri */
                    success_url?: string;
                    /** Format: uri */
                    cancel_url?: string;
                };
            };
        };
        responses: {
            /** @description The pending payment. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled payment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payment_not_pending`: paid, expired or failed first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    refundLatePayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment, its late payment's refund taken. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_funds`: nothing was sent. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `no_late_payment`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                /** @description Substring of the name, sku or barcode. */
                q?: string;
                /** @description Exact barcode: the scanner lookup. */
                barcode?: string;
                category?: string;
                /** @description Active products (default), inactive ones, or all. */
                active?: "true" | "false" | "all";
                /** @description The catalog's change feed: products whose catalog fields changed at or after this instant (with active=all, deactivated ones too), in (updated_at, id) order. Stock moves do not count as changes. A client keeps the largest updated_at it has seen and asks again from a little before it (a minute or two), because a change commits some time after its updated_at. Not combinable with q, barcode or category. */
                updated_since?: string;
                /** @description Page size, 1 to 500 (default 100). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of products. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Product"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createProduct: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @description Unit price in cents (0 to 1,000,000,000), or null: priced at sale time.
                     * @default null
                     */
                    price_cents?: number | null;
                    /**
                     * @description USD (default) or ZWG.
                     * @default USD
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                    barcode?: string | null;
                    sku?: string | null;
                    category?: string | null;
                    /**
                     * @description Count on-hand stock (default true); false for services.
                     * @default true
                     */
                    track_stock?: boolean;
                    /** @description Opening on-hand quantity (tracked products only); journaled as the opening move. */
                    stock_qty?: number;
                    /**
                     * @description Low-stock threshold (default 0).
                     * @default 0
                     */
                    low_stock_at?: number;
                    /**
                     * @description Tax rate in basis points (15.5 % = 1550, 0 to 10000), or null (default): the shop's default rate.
                     * @default null
                     */
                    tax_rate_bp?: number | null;
                };
            };
        };
        responses: {
            /** @description The product. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `barcode_taken`: another of the merchant's products has this barcode. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Unit price in cents (0 to 1,000,000,000), or null: priced at sale time. */
                    price_cents?: number | null;
                    /**
                     * @description Currency: USD or ZWG.
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                    barcode?: string | null;
                    sku?: string | null;
                    category?: string | null;
                    track_stock?: boolean;
                    /** @description Low-stock threshold. */
                    low_stock_at?: number;
                    /** @description Tax rate in basis points (15.5 % = 1550, 0 to 10000), or null (default): the shop's default rate. */
                    tax_rate_bp?: number | null;
                    /** @description false soft-deletes the product; true restores it. */
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description The product. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `barcode_taken`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    exportProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    previewProductImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/csv": string;
            };
        };
        responses: {
            /** @description The dry run. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductImportPreview"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    importProducts: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/csv": string;
            };
        };
        responses: {
            /** @description What was written. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductImport"];
                };
            };
            /** @description `import_invalid`: a row has an error; nothing was written. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `barcode_taken`: a barcode was taken meanwhile. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    receiveStock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: when sent, a retry with the same key replays the first answer and moves nothing twice. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    product_id: string;
                    /** @description Units received: a positive integer. */
                    qty: number;
                    /** @description Why (kept in the journal). */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The journaled move and the product as it now stands. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockOperation"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `product_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adjustStock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: when sent, a retry with the same key replays the first answer and moves nothing twice. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    product_id: string;
                    /** @description Signed, non-zero change of on-hand (e.g. -2 for breakage). */
                    qty: number;
                    /** @description Why (kept in the journal). */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The journaled move and the product as it now stands. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockOperation"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `product_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    countStock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: when sent, a retry with the same key replays the first answer and moves nothing twice. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    product_id: string;
                    /** @description The counted on-hand quantity (absolute). */
                    qty: number;
                    /** @description Why (kept in the journal). */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The journaled move and the product as it now stands. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockOperation"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `product_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listStockMoves: {
        parameters: {
            query?: {
                product_id?: string;
                kind?: "receive" | "sale" | "adjust" | "count" | "return";
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of stock moves. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StockMove"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getStockReport: {
        parameters: {
            query?: {
                /** @description Products per page of `products`. */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stock report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StockReport"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSalesBreakdownCsv: {
        parameters: {
            query?: {
                /** @description Start (included): a date (YYYY-MM-DD, that day's midnight in the merchant's time zone) or an instant with offset. Default: start of today in the merchant's time zone. */
                from?: string;
                /** @description End (excluded): a date (that day's midnight in the merchant's time zone: to=2026-12-01 ends with November) or an instant. Default: start of tomorrow in the merchant's time zone. */
                to?: string;
                /** @description Only this currency's rows (default: both). */
                currency?: "USD" | "ZWG";
            };
            header?: never;
            path: {
                dimension: "day" | "item" | "category" | "cashier" | "till" | "tender";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RFC 4180 CSV: the rows, then a total row per currency. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSalesBreakdown: {
        parameters: {
            query?: {
                /** @description Start (included): a date (YYYY-MM-DD, that day's midnight in the merchant's time zone) or an instant with offset. Default: start of today in the merchant's time zone. */
                from?: string;
                /** @description End (excluded): a date (that day's midnight in the merchant's time zone: to=2026-12-01 ends with November) or an instant. Default: start of tomorrow in the merchant's time zone. */
                to?: string;
                /** @description Only this currency's rows (default: both). */
                currency?: "USD" | "ZWG";
            };
            header?: never;
            path: {
                dimension: "day" | "item" | "category" | "cashier" | "till" | "tender";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The breakdown. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SalesBreakdown"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSales: {
        parameters: {
            query?: {
                status?: "pending" | "completed" | "cancelled";
                /** @description Created at or after. */
                from?: string;
                /** @description Created before. */
                to?: string;
                /** @description Only the sales a cashier (csh_…) recorded, switched in on a till. */
                cashier_id?: string;
                /** @description Only the sale whose receipt link (…/receipts/<token>), or one of whose return receipts' links, ends in this token: how a till finds the sale a customer brings back by scanning the receipt's QR. */
                receipt_token?: string;
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sales. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Sale"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSale: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 lines (more: too_many_items). */
                    items: {
                        product_id?: string;
                        /** @description Ad hoc line (no product_id). */
                        name?: string;
                        /** @description Units: 1 to 100000. */
                        qty: number;
                        /** @description Unit price in cents: required for ad hoc lines and unpriced products, else overrides the catalog (below it, a discount toward the shop's limit for a cashier). */
                        unit_cents?: number;
                        /** @description Off this line's gross (qty × unit price). */
                        discount?: {
                            /** @constant */
                            type: "percent";
                            /** @description Basis points: 10 % = 1000. */
                            percent_bp: number;
                        } | {
                            /** @constant */
                            type: "amount";
                            /** @description Cents off (never more than what it comes off). */
                            amount_cents: number;
                        };
                        /** @description Why the discount was given. */
                        discount_reason?: string;
                        /** @description An ad hoc line's tax rate in basis points (default: the shop's). A product line has its product's. */
                        tax_rate_bp?: number;
                    }[];
                    /**
                     * @description One tender for the whole sale; or `tenders` (one of the two is required).
                     * @enum {string}
                     */
                    tender?: "cash" | "wallet";
                    /** @description 1 to 4 tenders in the order they were taken (instead of tender/tendered_cents: both is parameter_invalid). Cash only and covered: completed at once. With a wallet tender: pending until every wallet tender is paid. */
                    tenders?: {
                        /**
                         * @description cash (may exceed what is due: change) or wallet (a payment code).
                         * @enum {string}
                         */
                        kind: "cash" | "wallet";
                        /**
                         * @description Currency: USD or ZWG.
                         * @enum {string}
                         */
                        currency: "USD" | "ZWG";
                        /** @description What this tender pays, in its own currency. */
                        amount_cents: number;
                    }[];
                    /**
                     * @description The currency change is given in (default: the basket's).
                     * @enum {string}
                     */
                    change_currency?: "USD" | "ZWG";
                    /** @description The rate the cashier used (an exchange_rate of the merchant, base = the basket's currency, other = the tender's): required when a tender or the change is in another currency than the basket's. It may be an older rate (an offline sale is priced with the rate the till had). */
                    exchange_rate_id?: string;
                    /** @description A cart discount: off what the lines come to after their own discounts, spread over them in proportion. Discounts above the shop's discount_limit_bp of the gross need a manager at a till with cashiers. */
                    discount?: {
                        /** @constant */
                        type: "percent";
                        /** @description Basis points: 10 % = 1000. */
                        percent_bp: number;
                    } | {
                        /** @constant */
                        type: "amount";
                        /** @description Cents off (never more than what it comes off). */
                        amount_cents: number;
                    };
                    /** @description Why the discount was given. */
                    discount_reason?: string;
                    /**
                     * @description Default: the catalog products' currency (USD for ad hoc lines only).
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                    cashier?: string;
                    note?: string;
                    /** @description The till (device) ringing the sale up. A cash sale on a till joins its open shift (its cash is expected in that drawer) and is refused with 409 shift_not_open when the till has none; without till_id a sale belongs to no drawer. A wallet sale from a paired till's session without till_id is that till's. */
                    till_id?: string;
                    /** @description The till's own id for this sale (8 to 100 of A-Z a-z 0-9 _ . : -, e.g. a UUID), unique per merchant and world for ever. A request naming a sale already recorded with the same body answers that sale (201, Idempotent-Replayed: true) and records nothing, even after its Idempotency-Key has expired; with another body it is refused (409 client_sale_id_mismatch). For sales queued offline and replayed later. */
                    client_sale_id?: string;
                    /**
                     * Format: date-time
                     * @description When the sale was rung up at the counter (cash only), if earlier than now: at most 30 days ago and at most 300 seconds ahead of the API's clock (else taken_at_out_of_range). A cash sale is completed at that time, so reports count it on the day it was taken. Default: now.
                     */
                    taken_at?: string;
                    /** @description Cash only: what the customer handed over, in the sale's currency, at least its total (else invalid_amount; a wallet sale naming it: parameter_invalid). Kept on the sale, so its receipt shows tendered and change. */
                    tendered_cents?: number;
                };
            };
        };
        responses: {
            /** @description The sale (cash: completed; wallet: pending, with its payment). Also the answer to a request naming a client_sale_id already recorded with the same body: that sale as it now stands, nothing recorded again, with the header Idempotent-Replayed: true (as for a replayed Idempotency-Key). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sale"];
                };
            };
            /** @description `parameter_invalid`, `parameter_missing`; `invalid_amount`; `invalid_discount`: a discount the basket cannot take; `tender_short`: cash tenders that do not cover the sale (its message says what is still due). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. `till_mismatch`: a till session naming another till's drawer as till_id. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `product_not_found`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `shift_not_open`: cash on a till without an open shift; `exchange_rate_missing`: tenders or change in another currency with no rate for the pair; `client_sale_id_mismatch`: the client_sale_id was recorded with a different request; `idempotency_mismatch`, `idempotency_in_flight`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `gateway_error`, `code_generation_failed` (wallet). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    addSaleTender: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description cash (may exceed what is due: change) or wallet (a payment code).
                     * @enum {string}
                     */
                    kind: "cash" | "wallet";
                    /**
                     * @description Currency: USD or ZWG.
                     * @enum {string}
                     */
                    currency: "USD" | "ZWG";
                    /** @description What this tender pays, in its own currency. */
                    amount_cents: number;
                    /** @description The rate the cashier used (an exchange_rate of the merchant, base = the basket's currency, other = the tender's): required when a tender or the change is in another currency than the basket's. It may be an older rate (an offline sale is priced with the rate the till had). */
                    exchange_rate_id?: string;
                    /**
                     * @description The currency change is given in (default: the basket's).
                     * @enum {string}
                     */
                    change_currency?: "USD" | "ZWG";
                    /** @description The sale's till, if given: a cash tender goes into the sale's drawer (its till needs an open shift), the one a cancel gives it back from; another till is refused with 400 parameter_invalid. */
                    till_id?: string;
                };
            };
        };
        responses: {
            /** @description The sale as it now stands, with the tender added (a wallet tender's payment embedded as `payment`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sale"];
                };
            };
            /** @description `parameter_invalid` (a wallet paying more than is due, a tender when nothing is due, a rate of another pair), `parameter_missing` (a tender in another currency without exchange_rate_id). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. `till_mismatch`: a till session adding to another till's sale, or naming another till's drawer as till_id. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `sale_not_pending`: not a pending split sale; `shift_not_open`; `exchange_rate_missing`: no rate for the pair. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `gateway_error`, `code_generation_failed` (wallet). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSaleReturn: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The lines returned, each at most once. */
                    items: {
                        /** @description The line's position in the sale's items (0-based). */
                        line: number;
                        /** @description Units returned. */
                        qty: number;
                    }[];
                    /** @description The till paying the refund out of its drawer: it must have an open shift (409 shift_not_open), which records the refund. Without till_id the refund is paid outside any drawer. */
                    till_id?: string;
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The return and the sale as it now stands (`sale.returned` is emitted). The refund is cash, also for a wallet sale (a refund to the payer's wallet is not offered yet). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SaleReturnResult"];
                };
            };
            /** @description `parameter_invalid`: a line the sale does not have. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. `till_mismatch`: a till session naming another till's drawer as till_id. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `return_exceeds_sale`: more units than were sold (less earlier returns); `sale_not_completed`; `shift_not_open`: till_id has no open shift. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSalesReport: {
        parameters: {
            query?: {
                /** @description Completed at or after (default: start of today in the merchant's time zone). */
                from?: string;
                /** @description Completed before (default: start of tomorrow in the merchant's time zone). */
                to?: string;
                /** @description Best sellers listed per currency (1 to 50, default 10). */
                top?: number;
                /** @description Only the sales a cashier (csh_…) recorded, switched in on a till. */
                cashier_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sales report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SalesReport"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelSale: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled sale. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sale"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. `till_mismatch`: a till session cancelling another till's sale. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `sale_not_pending`: completed, or a cash sale; `shift_not_open`: a split sale with paid tenders whose till has no open shift to give them back from. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSale: {
        parameters: {
            query?: {
                /** @description Long poll: while the sale is pending, answer only once it has completed or been cancelled, or after this many seconds (0 to 25; default 0, answer at once), whichever is first, and never later than a second after its payment's expires_at. The wait is woken by the settlement itself (PostgreSQL NOTIFY), so one waiting request per pending sale replaces polling. The answer is the sale as it then is: still pending when the time ran out. */
                wait_seconds?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sale. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sale"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReceiptPrintScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReceiptStyle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: "receipt.css" | "receipt-80mm.css" | "receipt-a4.css";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stylesheet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReceiptQr: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A 1-bit PNG of the receipt page's URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No receipt has this token (the receipt's HTML 404 page). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReceiptPage: {
        parameters: {
            query?: {
                /** @description Print layout: 80 mm roll or A4. */
                paper?: "80mm" | "a4";
            };
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No receipt has this token. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listShifts: {
        parameters: {
            query?: {
                till_id?: string;
                status?: "open" | "closed";
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of shifts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Shift"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    openShift: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The till (device) the drawer belongs to: 1 to 100 of A-Z a-z 0-9 _ . : -. */
                    till_id: string;
                    /**
                     * @description The counted opening float, at most one entry per currency.
                     * @default []
                     */
                    float?: {
                        /**
                         * @description Currency: USD or ZWG.
                         * @enum {string}
                         */
                        currency: "USD" | "ZWG";
                        /** @description The counted opening float (cents, ≥ 0). */
                        amount_cents: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description The open shift; `shift.opened` is emitted. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shift"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. `till_mismatch`: a till session opening another till's drawer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `shift_already_open`: the till has an open shift. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listShiftCashMoves: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 100). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cash moves. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ShiftCashMove"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    recordShiftCashMove: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description pay_in: cash put in; pay_out: cash taken out.
                     * @enum {string}
                     */
                    kind: "pay_in" | "pay_out";
                    /**
                     * @description Currency: USD or ZWG.
                     * @enum {string}
                     */
                    currency: "USD" | "ZWG";
                    /** @description Cents moved (positive). */
                    amount_cents: number;
                    /** @description Why (e.g. 'change from the bank', 'paid the cleaner'). */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The cash move and the shift as it now stands. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShiftCashMoveResult"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. `till_mismatch`: a till session moving cash in another till's drawer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `shift_not_open`: the shift is closed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    closeShift: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The cash counted in the drawer; every currency the shift holds (a float or any move) must be counted, at most one entry per currency. */
                    counted: {
                        /**
                         * @description Currency: USD or ZWG.
                         * @enum {string}
                         */
                        currency: "USD" | "ZWG";
                        /** @description The cash counted in the drawer; every currency the shift holds (a float or any move) must be counted (cents, ≥ 0). */
                        amount_cents: number;
                    }[];
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The closed shift; `shift.closed` is emitted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shift"];
                };
            };
            /** @description `parameter_missing`: a currency the shift holds was not counted. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. `till_mismatch`: a till session closing another till's drawer. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `shift_not_open`: the shift is closed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getShift: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shift. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Shift"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getShiftZReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Z report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ZReport"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `resource_missing`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExchangeRates: {
        parameters: {
            query?: {
                base?: "USD" | "ZWG";
                other?: "USD" | "ZWG";
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of rates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExchangeRate"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    setExchangeRate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Currency: USD or ZWG.
                     * @enum {string}
                     */
                    base: "USD" | "ZWG";
                    /**
                     * @description Currency: USD or ZWG.
                     * @enum {string}
                     */
                    other: "USD" | "ZWG";
                    /** @description How many of the other currency one unit of the base buys, e.g. `26.7843` (at most 6 decimals). */
                    rate: string;
                };
            };
        };
        responses: {
            /** @description The rate now in force for the pair; audited as `exchange_rate.set`. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExchangeRate"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `principal_not_allowed`, `manager_required` (a cashier at the till). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    currentExchangeRates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One rate per pair set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExchangeRate"][];
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPayouts: {
        parameters: {
            query?: {
                status?: "requested" | "submitted" | "confirmed" | "failed" | "reversed";
                /** @description Created at or after. */
                from?: string;
                /** @description Created before. */
                to?: string;
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payouts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Payout"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPayout: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Amount in integer cents, positive. */
                    amount_cents: number;
                    /**
                     * @description USD (default) or ZWG.
                     * @default USD
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                };
            };
        };
        responses: {
            /** @description The payout, `requested`; the amount has left the balance. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `step_up_required`: with a session, the password must have been entered in the last 5 minutes. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWithdrawalCode: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Amount in integer cents, positive. */
                    amount_cents: number;
                    /**
                     * @description USD (default) or ZWG.
                     * @default USD
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                };
            };
        };
        responses: {
            /** @description The pending withdrawal code. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawalCode"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWithdrawalCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The withdrawal code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawalCode"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    claimTestWithdrawalCode: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Wallet number: 263 followed by digits. */
                    customer_msisdn?: string;
                };
            };
        };
        responses: {
            /** @description The redeemed withdrawal code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawalCode"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createBankChange: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Amount in integer cents, positive. */
                    amount_cents: number;
                    /**
                     * @description USD (default) or ZWG.
                     * @default USD
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                    /** @description Wallet number: 263 followed by digits. */
                    destination_msisdn: string;
                    narration?: string;
                };
            };
        };
        responses: {
            /** @description The completed change-to-wallet. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BankChange"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getBankChange: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The change-to-wallet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BankChange"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    lookupAccount: {
        parameters: {
            query: {
                /** @description Wallet number: 263 followed by digits. */
                msisdn: string;
                /** @description USD (default) or ZWG. */
                currency?: "USD" | "ZWG";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet holder. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountLookup"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listUtilityProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every provider. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UtilityProvider"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createUtilityPayment: {
        parameters: {
            query?: never;
            header: {
                /** @description Required on money-moving POSTs. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A provider id from GET /v1/utilities/providers. */
                    provider: string;
                    /** @description One of the provider's product codes. */
                    provider_product: string;
                    /** @description Amount in integer cents, positive. */
                    amount_cents: number;
                    /**
                     * @description USD (default) or ZWG, as the provider takes.
                     * @default USD
                     * @enum {string}
                     */
                    currency?: "USD" | "ZWG";
                    /** @description The provider's account: meter, phone number, smartcard or council account. */
                    destination_account: string;
                    narration?: string;
                    /** @description What the provider needs besides the account; its shape is in the provider's entry. */
                    additional_data?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The completed payment with its receipt. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UtilityPayment"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Idempotency conflict: different body, or the original still in flight. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getUtilityPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The utility payment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UtilityPayment"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Both currencies, always listed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Balance"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listLedgerEntries: {
        parameters: {
            query?: {
                entry_type?: "payment" | "fee" | "payout" | "withdrawal" | "bank_change" | "utility_payment" | "commission" | "reversal" | "adjustment";
                /** @description Entries at or after this time. */
                from?: string;
                /** @description Entries before this time. */
                to?: string;
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ledger entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LedgerEntry"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getStatementCsv: {
        parameters: {
            query?: {
                /** @description Statement start (inclusive); default: the first entry. At most 366 days before `to`. */
                from?: string;
                /** @description Statement end (exclusive); default: now. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RFC 4180 CSV, streamed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description oldest_first (default): the feed to process, `since` the last event processed. newest_first: for reading a log, `since` then the last event shown (the page goes on with older ones). */
                order?: "oldest_first" | "newest_first";
                /** @description The id of the last event already processed; absent: from the oldest retained event. */
                since?: string;
                /** @description Only events of this type (`payment.paid`), or of this family (`payment.*`). */
                type?: string;
                /** @description Only events about this payment (their `data.payment_id`): a payment's timeline. */
                payment_id?: string;
                /** @description Page size, 1 to 100 (default 100). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. Store the last id processed and pass it as `since` next time. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Event"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEndpoint"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Absolute URL; https in live mode, http also allowed in test mode. */
                    url: string;
                    /**
                     * @description Event types to deliver; `*` (the default) means all.
                     * @default [
                     *       "*"
                     *     ]
                     */
                    event_types?: ("*" | "payment.paid" | "payment.expired" | "payment.failed" | "payment.cancelled" | "payment.late_paid" | "payout.confirmed" | "payout.failed" | "payout.reversed" | "withdrawal.redeemed" | "bank_change.completed" | "bank_change.failed" | "utility_payment.completed" | "utility_payment.failed" | "sale.completed" | "sale.returned" | "shift.opened" | "shift.closed")[];
                };
            };
        };
        responses: {
            /** @description The endpoint with its signing secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deactivateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deactivated endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "succeeded" | "dead" | "canceled";
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rollWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description How long the previous secret keeps signing too, 0 to 604800 s (7 days); default 86400 (24 h). 0 ends it now.
                     * @default 86400
                     */
                    expires_in_seconds?: number;
                };
            };
        };
        responses: {
            /** @description The endpoint with its new signing secret (shown only here). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolledWebhookEndpoint"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `step_up_required`: with a session, the password must have been entered in the last 5 minutes. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Recover the dead deliveries created (with their event) at or after this time; at most 30 days ago. */
                    since: string;
                };
            };
        };
        responses: {
            /** @description How many dead deliveries were scheduled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    sendWebhookTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test event's delivery, due now. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEventWebhookDeliveries: {
        parameters: {
            query: {
                /** @description The event whose deliveries (one per endpoint) to list. */
                event_id: string;
                status?: "pending" | "succeeded" | "dead" | "canceled";
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description The next_cursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, due now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing, unknown or revoked API key; or no session, or an expired or revoked one. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Merchant not active; a principal the route does not allow (`principal_not_allowed`, `step_up_required`, `cashier_required`, `manager_required`: see x-pos-access); or (sessions) a missing CSRF token or foreign Origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Rate limit exceeded (60 requests per 10 seconds per merchant). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCheckoutPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCheckoutStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutStatus"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutStatus"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    mockpayCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    outcome?: "expired";
                };
            };
        };
        responses: {
            /** @description The new status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckoutStatus"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getStaticFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: "pos.js" | "checkout.js" | "checkout.css";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAppAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's HTML shell. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDashboardPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                page: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's HTML shell. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDashboardSectionPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                section: string;
                page: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's HTML shell. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTill: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's HTML shell. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTillServiceWorker: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service worker script. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTillPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                page: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's HTML shell. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminCreateMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @default business
                     * @enum {string}
                     */
                    type?: "business" | "individual" | "agent";
                    /** Format: email */
                    email: string;
                    password: string;
                    /**
                     * @default active
                     * @enum {string}
                     */
                    status?: "pending" | "active" | "suspended";
                    /** @default 0 */
                    fee_bps?: number;
                    /** @default 0 */
                    fee_fixed_cents?: number;
                    /** @description Wallet number: 263 followed by digits. */
                    payout_msisdn?: string;
                    /** @default false */
                    payout_verified?: boolean;
                    /**
                     * @description IANA time zone, e.g. Africa/Harare (default).
                     * @default Africa/Harare
                     */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description The merchant; the keys are shown only here. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedMerchant"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminGetMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMerchant"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminSetMerchantStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "pending" | "active" | "suspended";
                };
            };
        };
        responses: {
            /** @description The merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMerchant"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminSetMerchantTimezone: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description IANA time zone, e.g. Africa/Harare (default). */
                    timezone: string;
                };
            };
        };
        responses: {
            /** @description The merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMerchant"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        has_more: boolean;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminCreateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    mode: "test" | "live";
                };
            };
        };
        responses: {
            /** @description The key; the secret is shown only here. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminSetPayoutDestination: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Wallet number: 263 followed by digits. */
                    msisdn: string;
                    verified: boolean;
                };
            };
        };
        responses: {
            /** @description The merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMerchant"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminGetPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPayout"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminReversePayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The reversed payout. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPayout"];
                };
            };
            /** @description Invalid request. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Missing or wrong operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Operator API disabled. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Platform fault; retry. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}

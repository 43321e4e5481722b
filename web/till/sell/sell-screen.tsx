import { useEffect, useRef, useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { session } from "../../lib/session.ts";
import { toast } from "../../ui/index.ts";
import { lookupBarcode, productByBarcode } from "../catalog/catalog.ts";
import type { Product } from "../catalog/product.ts";
import { ProductDialog } from "../catalog/product-dialog.tsx";
import { EditProductsButton } from "../catalog/product-editing.tsx";
import { recordedReceiptUrls } from "../offline/index.ts";
import { ReceiptPanel } from "../receipt/receipt-panel.tsx";
import { useScanHandler } from "../scan/scan-target.ts";
import { DrawerPrompt } from "../shift/drawer-prompt.tsx";
import { loadOpenShift, openShift } from "../shift/shift-api.ts";
import { addToCart, cartHeldBy } from "./cart.ts";
import { CartPanel } from "./cart-panel.tsx";
import { CashDialog } from "./cash-dialog.tsx";
import { parkCart } from "./parked.ts";
import { ParkedDialog } from "./parked-dialog.tsx";
import { PriceDialog } from "./price-dialog.tsx";
import { ProductTiles } from "./product-tiles.tsx";
import { type Completed, completedWalletSale } from "./sale-api.ts";
import { refreshTaxSettings } from "./tax-settings.ts";
import { WalletDialog } from "./wallet-dialog.tsx";
import { onHeldSaleEnded, resumeHeldSale } from "./wallet-hold.ts";

type Mode =
  | { kind: "selling" }
  | { kind: "price"; product: Product }
  | { kind: "new-product"; barcode: string }
  | { kind: "cash" }
  | { kind: "wallet" }
  | { kind: "parked" }
  | { kind: "open-drawer" };

const isField = (element: Element | null) =>
  element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;

/**
 * Sell: a scan box that keeps the focus, product tiles, the cart, and payment. A scan adds its product
 * wherever the focus is (the document-level scanner), an unknown barcode opens the new-product form
 * with the cart kept, and a finished sale starts a new cart at once.
 */
export function SellScreen() {
  const [mode, setMode] = useState<Mode>({ kind: "selling" });
  const [completed, setCompleted] = useState<Completed | undefined>(undefined);
  const [typed, setTyped] = useState("");
  const scanBox = useRef<HTMLInputElement>(null);

  // Taps anywhere give the focus back to the scan box, unless they put it in a field or a dialog is open.
  const reclaimFocus = () =>
    setTimeout(() => {
      if (document.querySelector("dialog[open]") !== null || isField(document.activeElement)) return;
      scanBox.current?.focus({ preventScroll: true });
    }, 0);
  useEffect(() => {
    // Whether this till's drawer is open (in this world): cash waits for it. Unknown: the server decides.
    loadOpenShift().catch(() => {});
    // The shop's tax settings the cart prices with.
    refreshTaxSettings();
    // A wallet payment held over a reload: follow it again (its end frees or clears the cart).
    resumeHeldSale();
    document.addEventListener("pointerup", reclaimFocus);
    reclaimFocus();
    return () => document.removeEventListener("pointerup", reclaimFocus);
  }, []);

  const backToSelling = () => {
    setMode({ kind: "selling" });
    reclaimFocus();
  };

  const add = (product: Product, unitCents?: number) => {
    const price = unitCents ?? product.price_cents;
    if (cartHeldBy.value !== undefined) {
      toast("A wallet payment is waiting for this basket: cancel the payment to change it.", "error");
      return;
    }
    if (price === null) {
      setMode({ kind: "price", product });
      return;
    }
    if (!addToCart(product, price)) {
      toast(`${product.name} is priced in ${product.currency}: finish this sale first.`, "error");
      return;
    }
    setCompleted(undefined);
  };

  const scanned = (code: string) => {
    if (mode.kind !== "selling") {
      toast("Finish or close the open window before scanning.", "error");
      return;
    }
    // The common case, synchronous: the product is in the browser's catalog.
    const cached = productByBarcode(code);
    if (cached !== undefined) {
      add(cached);
      return;
    }
    lookupBarcode(code).then(
      (product) => (product === undefined ? setMode({ kind: "new-product", barcode: code }) : add(product)),
      () => toast(`Could not look up ${code}. Check the connection.`, "error"),
    );
  };
  useScanHandler(scanned);

  const finished = (result: Completed) => {
    setCompleted(result);
    backToSelling();
  };
  // A held wallet sale paid while its dialog is closed: the cart was cleared; say the sale is done.
  useEffect(
    () =>
      onHeldSaleEnded((sale) => {
        if (sale.status === "completed") setCompleted(completedWalletSale(sale));
      }),
    [],
  );

  return (
    <div class="sell">
      <section class="sell-catalog" aria-label="Products">
        <form
          class="scan-box"
          onSubmit={(event) => {
            // A code typed by hand (a scan never gets here: the scanner swallows its Enter).
            event.preventDefault();
            const code = typed.trim();
            setTyped("");
            if (code !== "") scanned(code);
          }}
        >
          <label for="scan-input">Scan or type a barcode</label>
          <input
            id="scan-input"
            ref={scanBox}
            value={typed}
            autocomplete="off"
            inputMode="numeric"
            onInput={(event) => setTyped(event.currentTarget.value)}
          />
        </form>
        <ProductTiles onPick={(product) => add(product)} />
        <EditProductsButton />
      </section>
      <section class="sell-cart" aria-label="Cart">
        {completed === undefined ? null : (
          <p class="sale-done" role="status">
            Sale complete: {formatMoney(completed.sale.currency, completed.sale.total_cents)} by {completed.sale.tender}
            {completed.changeCents === undefined
              ? null
              : ` · change due ${formatMoney(completed.sale.currency, completed.changeCents)}`}
          </p>
        )}
        {completed === undefined ? null : (
          <ReceiptPanel
            receiptUrl={
              completed.sale.receipt_url ??
              (completed.clientSaleId === undefined
                ? null
                : (recordedReceiptUrls.value.get(completed.clientSaleId) ?? null))
            }
            shopName={session.value?.merchant.name ?? ""}
            what="sale"
            receipt={completed.receipt}
          />
        )}
        <CartPanel
          onPay={(tender) => setMode({ kind: tender === "cash" && openShift.value === null ? "open-drawer" : tender })}
          onPark={() => {
            if (cartHeldBy.value !== undefined) {
              toast("A wallet payment is waiting for this basket: cancel the payment to park it.", "error");
              return;
            }
            parkCart();
            setCompleted(undefined);
            reclaimFocus();
          }}
          onShowParked={() => setMode({ kind: "parked" })}
          onEditDone={() => scanBox.current?.focus({ preventScroll: true })}
        />
      </section>
      <PriceDialog
        product={mode.kind === "price" ? mode.product : undefined}
        onPrice={(product, cents) => {
          backToSelling();
          add(product, cents);
        }}
        onClose={backToSelling}
      />
      <ProductDialog
        barcode={mode.kind === "new-product" ? mode.barcode : undefined}
        purpose="sell"
        onSaved={(product) => {
          backToSelling();
          add(product);
        }}
        onClose={backToSelling}
      />
      <CashDialog open={mode.kind === "cash"} onCompleted={finished} onClose={backToSelling} />
      <ParkedDialog open={mode.kind === "parked"} onClose={backToSelling} />
      <DrawerPrompt open={mode.kind === "open-drawer"} onClose={backToSelling} />
      <WalletDialog
        open={mode.kind === "wallet"}
        onCompleted={finished}
        onPayCash={() => setMode({ kind: openShift.value === null ? "open-drawer" : "cash" })}
        onClose={backToSelling}
      />
    </div>
  );
}

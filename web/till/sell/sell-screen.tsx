import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { lazyPage, toast } from "../../ui/index.ts";
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
import { CartPanel, type Tender } from "./cart-panel.tsx";
import { CashDialog } from "./cash-dialog.tsx";
import { parkCart } from "./parked.ts";
import type { PriceDialog as AskPrice } from "./price-dialog.tsx";
import { ProductTiles } from "./product-tiles.tsx";
import { type Completed, completedSale } from "./sale-api.ts";
import { refreshTaxSettings } from "./tax-settings.ts";
import { WalletDialog } from "./wallet-dialog.tsx";
import { heldSale, onHeldSaleEnded, resumeHeldSale } from "./wallet-hold.ts";

// The Pay step for several tenders or another currency, and the windows for parked carts and a price
// asked at sale time, loaded when first opened with the screens opened now and then (one chunk: the
// till's first load is at its budget, web/build.ts); the service worker caches it: they open offline too.
const PayStep = lazyPage<{ onCompleted: (result: Completed) => void; onClose: () => void }>(
  async () => (await import("../occasional-screens.ts")).PayStep,
);
const ParkedDialog = lazyPage<{ open: boolean; onClose: () => void }>(
  async () => (await import("../occasional-screens.ts")).ParkedDialog,
);
const PriceDialog = lazyPage<Parameters<typeof AskPrice>[0]>(
  async () => (await import("../occasional-screens.ts")).PriceDialog,
);

type Mode =
  | { kind: "selling" }
  | { kind: "price"; product: Product }
  | { kind: "new-product"; barcode: string }
  | { kind: Tender }
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
  const scanBox = useRef<HTMLInputElement>(null);
  const reclaimFocus = useScanBoxFocus(scanBox);
  const backToSelling = () => {
    setMode({ kind: "selling" });
    reclaimFocus();
  };
  const add = (product: Product, unitCents?: number) => {
    if (addOrAsk(product, unitCents, () => setMode({ kind: "price", product }))) setCompleted(undefined);
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
  // A held sale paid while its dialog is closed: the cart was cleared; say the sale is done.
  useEffect(
    () =>
      onHeldSaleEnded((sale, changeDue) => sale.status === "completed" && setCompleted(completedSale(sale, changeDue))),
    [],
  );
  const pay = (tender: Tender) => setMode({ kind: payMode(tender) });
  const finished = (result: Completed) => {
    setCompleted(result);
    backToSelling();
  };
  return (
    <div class="sell">
      <section class="sell-catalog" aria-label="Products">
        <ScanBox inputRef={scanBox} onCode={scanned} />
        <ProductTiles onPick={(product) => add(product)} />
        <EditProductsButton />
      </section>
      <section class="sell-cart" aria-label="Cart">
        {completed === undefined ? null : <SaleDone completed={completed} />}
        <CartPanel
          onPay={pay}
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
        {mode.kind === "split" ? <PayStep onCompleted={finished} onClose={backToSelling} /> : null}
      </section>
      <SellDialogs mode={mode} add={add} pay={pay} onCompleted={finished} onClose={backToSelling} />
    </div>
  );
}

/**
 * Puts a product in the cart at `unitCents` (default: its price); a product priced at sale time asks
 * its price first. False when it was not added (the cart held by a payment, another currency).
 */
function addOrAsk(product: Product, unitCents: number | undefined, askPrice: () => void): boolean {
  const price = unitCents ?? product.price_cents;
  if (cartHeldBy.value !== undefined) {
    toast("A wallet payment is waiting for this basket: cancel the payment to change it.", "error");
  } else if (price === null) {
    askPrice();
  } else if (!addToCart(product, price)) {
    toast(`${product.name} is priced in ${product.currency}: finish this sale first.`, "error");
  } else {
    return true;
  }
  return false;
}

/** The windows Sell opens over the cart, one at a time (`mode`). */
function SellDialogs(props: {
  mode: Mode;
  add: (product: Product, unitCents?: number) => void;
  pay: (tender: Tender) => void;
  onCompleted: (result: Completed) => void;
  onClose: () => void;
}) {
  const { mode, onClose: backToSelling, onCompleted: finished } = props;
  const addAfter = (product: Product, unitCents?: number) => {
    backToSelling();
    props.add(product, unitCents);
  };
  return (
    <>
      {mode.kind === "price" ? <PriceDialog product={mode.product} onPrice={addAfter} onClose={backToSelling} /> : null}
      <ProductDialog
        barcode={mode.kind === "new-product" ? mode.barcode : undefined}
        purpose="sell"
        onSaved={(product) => addAfter(product)}
        onClose={backToSelling}
      />
      <CashDialog open={mode.kind === "cash"} onCompleted={finished} onClose={backToSelling} />
      {mode.kind === "parked" ? <ParkedDialog open onClose={backToSelling} /> : null}
      <DrawerPrompt open={mode.kind === "open-drawer"} onClose={backToSelling} />
      <WalletDialog
        open={mode.kind === "wallet"}
        onCompleted={finished}
        onPayCash={() => props.pay("cash")}
        onClose={backToSelling}
      />
    </>
  );
}

/**
 * Which window a Pay button opens: cash (alone or in a split) waits for an open drawer; a held split
 * sale is shown by the Pay step, whichever button asked for it (its wallet code, what was paid).
 */
function payMode(tender: Tender): Tender | "open-drawer" {
  if (heldSale.value?.tender === "split") return "split";
  if (tender !== "wallet" && openShift.value === null) return "open-drawer";
  return tender;
}

/**
 * Gives the focus back to the scan box after taps anywhere, unless they put it in a field or a dialog
 * is open; and starts what selling needs (the drawer's state, the tax settings, a held payment).
 */
function useScanBoxFocus(scanBox: RefObject<HTMLInputElement | null>): () => void {
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
  return reclaimFocus;
}

/** The scan box: a code typed by hand and Enter (a scan never gets here: the scanner swallows its Enter). */
function ScanBox(props: { inputRef: RefObject<HTMLInputElement | null>; onCode: (code: string) => void }) {
  const [typed, setTyped] = useState("");
  return (
    <form
      class="scan-box"
      onSubmit={(event) => {
        event.preventDefault();
        const code = typed.trim();
        setTyped("");
        if (code !== "") props.onCode(code);
      }}
    >
      <label for="scan-input">Scan or type a barcode</label>
      <input
        id="scan-input"
        ref={props.inputRef}
        value={typed}
        autocomplete="off"
        inputMode="numeric"
        onInput={(event) => setTyped(event.currentTarget.value)}
      />
    </form>
  );
}

/** The sale just finished: its total, tender and change, and its receipt. */
function SaleDone(props: { completed: Completed }) {
  const { sale, change, clientSaleId } = props.completed;
  return (
    <>
      <p class="sale-done" role="status">
        Sale complete: {formatMoney(sale.currency, sale.total_cents)} by {sale.tender}
        {change === undefined ? null : ` · change due ${formatMoney(change.currency, change.amountCents)}`}
      </p>
      <ReceiptPanel
        receiptUrl={
          sale.receipt_url ??
          (clientSaleId === undefined ? null : (recordedReceiptUrls.value.get(clientSaleId) ?? null))
        }
        what="sale"
        receipt={props.completed.receipt}
      />
    </>
  );
}

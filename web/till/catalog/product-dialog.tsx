import { useState } from "preact/hooks";
import { ApiError } from "../../lib/api.ts";
import { api } from "../../lib/session.ts";
import { Button, Dialog, Field, SelectField } from "../../ui/index.ts";
import { parseAmountCents } from "../money.ts";
import { lookupBarcode, remember } from "./catalog.ts";
import type { Product } from "./product.ts";

/**
 * A new product from an unknown barcode, the barcode filled in. Saved, it joins the browser's catalog
 * and goes where the scan was headed (the cart, or the stock form). The barcode is unique per merchant,
 * so a save retried after a dropped connection finds the product it made instead of a second one.
 * The form is mounted afresh for each barcode (the dialog renders its content only while open), so it
 * starts empty without an effect that could clear what was typed after the dialog appeared.
 */
export function ProductDialog(props: {
  barcode: string | undefined;
  purpose: "sell" | "stock";
  onSaved: (product: Product) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={props.barcode !== undefined} title="New product" onClose={props.onClose}>
      {props.barcode === undefined ? null : (
        <ProductForm
          key={props.barcode}
          barcode={props.barcode}
          purpose={props.purpose}
          onSaved={props.onSaved}
          onClose={props.onClose}
        />
      )}
    </Dialog>
  );
}

function ProductForm(props: {
  barcode: string;
  purpose: "sell" | "stock";
  onSaved: (product: Product) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState("");
  const [price, setPrice] = useState("");
  const [currency, setCurrency] = useState("USD");
  const [category, setCategory] = useState("");
  const [barcode, setBarcode] = useState(props.barcode);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const priceCents = price.trim() === "" ? null : parseAmountCents(price);
    if (priceCents === undefined) {
      setError("The price is an amount such as 4.50, or empty for priced at sale time.");
      return;
    }
    setBusy(true);
    setError(undefined);
    const body = {
      name: name.trim(),
      price_cents: priceCents,
      currency,
      barcode: barcode.trim() === "" ? null : barcode.trim(),
      category: category.trim() === "" ? null : category.trim(),
    };
    try {
      const product = await api.post<Product>("/v1/products", body, { world: "test" });
      remember([product]);
      props.onSaved(product);
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === "barcode_taken" && body.barcode !== null) {
        const existing = await lookupBarcode(body.barcode).catch(() => undefined);
        if (existing !== undefined && existing.name === body.name) {
          props.onSaved(existing);
          return;
        }
        setError("Another product already has this barcode.");
      } else {
        setError(caught instanceof Error ? caught.message : "The product could not be saved.");
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p class="muted">
        Barcode {props.barcode} is not in the catalog.{" "}
        {props.purpose === "sell" ? "Saved, it goes into the cart; the cart is kept." : "Saved, you can receive it."}
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Field label="Name" required autoFocus value={name} onValue={setName} maxLength={200} />
        <Field
          label="Price"
          inputMode="decimal"
          value={price}
          onValue={setPrice}
          hint="Leave empty to ask for the price at each sale."
        />
        <SelectField
          label="Currency"
          value={currency}
          onValue={setCurrency}
          options={[
            { value: "USD", label: "USD" },
            { value: "ZWG", label: "ZWG" },
          ]}
        />
        <Field label="Category" value={category} onValue={setCategory} maxLength={100} />
        <Field label="Barcode" value={barcode} onValue={setBarcode} maxLength={100} />
        {error === undefined ? null : (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Save product
          </Button>
        </div>
      </form>
    </>
  );
}

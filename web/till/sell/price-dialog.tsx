import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { Button, Dialog, Field } from "../../ui/index.ts";
import type { Product } from "../catalog/product.ts";
import { parseAmountCents } from "../money.ts";

/**
 * A product priced at sale time: the cashier types this sale's unit price. The form is mounted afresh
 * at each opening (the dialog renders its content only while open), so it starts empty without an
 * effect that could clear what was typed after the dialog appeared.
 */
export function PriceDialog(props: {
  product: Product | undefined;
  onPrice: (product: Product, unitCents: number) => void;
  onClose: () => void;
}) {
  const product = props.product;
  return (
    <Dialog open={product !== undefined} title={`Price of ${product?.name ?? ""}`} onClose={props.onClose}>
      {product === undefined ? null : (
        <PriceForm key={product.id} product={product} onPrice={props.onPrice} onClose={props.onClose} />
      )}
    </Dialog>
  );
}

function PriceForm(props: {
  product: Product;
  onPrice: (product: Product, unitCents: number) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const { product } = props;
  const cents = parseAmountCents(text);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (cents === undefined) {
          setError("Type an amount such as 4.50.");
          return;
        }
        props.onPrice(product, cents);
      }}
    >
      <Field
        label={`Unit price (${product.currency})`}
        inputMode="decimal"
        autoFocus
        value={text}
        onValue={setText}
        error={error}
        hint={cents === undefined ? "This product is priced at sale time." : formatMoney(product.currency, cents)}
      />
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button type="submit" variant="primary">
          Add to cart
        </Button>
      </div>
    </form>
  );
}

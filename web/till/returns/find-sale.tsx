import { useState } from "preact/hooks";
import { ApiError, getSale, listSales } from "../../lib/api.ts";
import { useAction } from "../../lib/use-action.ts";
import { Button, Field } from "../../ui/index.ts";
import { useScanHandler } from "../scan/scan-target.ts";
import { type SaleReference, saleReference } from "./sale-reference.ts";

const NOT_FOUND = "Not found: no sale of this shop has that receipt.";

/**
 * Finds the sale of a receipt a customer brings back, however old: by its number typed in, or by its
 * QR code scanned (a scan lands here wherever the focus is while Today is shown). One request for a
 * receipt link, one for a number; then `onFound` opens the sale, where its lines can be returned.
 */
export function FindSale(props: { onFound: (saleId: string) => void }) {
  const [text, setText] = useState("");
  const { busy, error, fail, run } = useAction();
  const find = async (input: string) => {
    const reference = saleReference(input);
    if (reference === undefined) {
      // Whatever was typed, the cashier's question was "is there such a sale": answer it first.
      fail(`Not found: "${input.trim()}" is no receipt of this shop. A receipt's number starts with sale_.`);
      return;
    }
    await run(async () => {
      const saleId = await saleIdOf(reference).catch((failure: unknown) => {
        throw failure instanceof ApiError && failure.status === 404 ? new Error(NOT_FOUND) : failure;
      });
      if (saleId === undefined) throw new Error(NOT_FOUND);
      setText("");
      props.onFound(saleId);
    });
  };
  useScanHandler((code) => {
    setText(code);
    void find(code);
  });
  return (
    <form
      class="find-sale"
      onSubmit={(event) => {
        event.preventDefault();
        void find(text);
      }}
    >
      <Field
        label="Find a sale by its receipt"
        hint="The number on the receipt (sale_…), or scan the receipt's QR code."
        value={text}
        onValue={setText}
        error={error}
        autocomplete="off"
        maxLength={300}
      />
      <Button type="submit" busy={busy}>
        Find
      </Button>
    </form>
  );
}

/** The sale a receipt names: by its number, or by its receipt link's token (undefined: none has it). */
async function saleIdOf(reference: SaleReference): Promise<string | undefined> {
  return "saleId" in reference
    ? (await getSale(reference.saleId)).id
    : (await listSales({ receipt_token: reference.receiptToken, limit: 1 })).data[0]?.id;
}

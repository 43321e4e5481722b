import { computed } from "@preact/signals";
import { useState } from "preact/hooks";
import { Button, lazyPage } from "../../ui/index.ts";
import { cashiers, currentCashier } from "../cashier/cashiers.ts";

/**
 * Whether this till may change a product (`PATCH /v1/products/:id`, docs/security.md): in a shop with
 * cashiers, a manager switched in (a cashier is refused, 403 `manager_required`); in a shop without
 * any, the owner's own till, which acts as the owner's till user. The server decides; the till only
 * leaves the control out where it would be refused.
 */
export const mayEditProducts = computed(() => {
  const hasCashiers = (cashiers.value ?? []).some((cashier) => cashier.status !== "disabled");
  return !hasCashiers || currentCashier.value?.role === "manager";
});

// Opened now and then by the owner or a manager: the chunk of the occasional screens, not the first load.
const ProductEditor = lazyPage<{ onClose: () => void }>(
  async () => (await import("../occasional-screens.ts")).ProductEditor,
);

/** *Edit products* for whoever may change them (none for a cashier): the editor, loaded on demand. */
export function EditProductsButton() {
  const [open, setOpen] = useState(false);
  if (!mayEditProducts.value) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>Edit products</Button>
      {open ? <ProductEditor onClose={() => setOpen(false)} /> : null}
    </>
  );
}

import { lazyPage } from "../../ui/index.ts";
import type { ReceiptPanelProps } from "./receipt-panel-body.tsx";

/**
 * The receipt of a finished sale or return (`receipt-panel-body.tsx`), from the chunk of the screens
 * opened now and then (`occasional-screens.ts`): outside the till's first load (web/build.ts's budget),
 * and cached by the service worker, so it shows offline too. The screens of that chunk (a return's
 * receipt) use `ReceiptPanelBody` itself.
 */
export const ReceiptPanel = lazyPage<ReceiptPanelProps>(
  async () => (await import("../occasional-screens.ts")).ReceiptPanelBody,
);

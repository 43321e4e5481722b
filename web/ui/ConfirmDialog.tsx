import type { ComponentChildren } from "preact";
import { Button } from "./Button.tsx";
import { Dialog } from "./Dialog.tsx";

/**
 * Asks before a destructive action, in our own dialog rather than the browser's confirm(): it carries
 * the app's look and words, a labelled danger button, and a screen reader hears it as a dialog. The
 * dialog closes before `onConfirm` runs, so a dialog the action opens (step-up) is the only one open.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      {props.children}
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          variant="danger"
          onClick={() => {
            props.onClose();
            props.onConfirm();
          }}
        >
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

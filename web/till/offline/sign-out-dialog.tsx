import { useState } from "preact/hooks";
import { Button, Dialog, toast } from "../../ui/index.ts";
import { exportOutbox, unsyncedSales } from "./outbox.ts";

/**
 * Shown instead of signing out while sales are unsynced: signing out is refused until the cashier
 * exports them (the sales stay queued in this browser and send at the next sign-in either way).
 */
export function SignOutDialog(props: { open: boolean; onSignOut: () => void; onClose: () => void }) {
  // Its content is mounted afresh at each opening (the dialog renders it only while open): "exported"
  // starts false every time.
  return (
    <Dialog open={props.open} title="Sales not yet sent" onClose={props.onClose}>
      <SignOutChoices onSignOut={props.onSignOut} onClose={props.onClose} />
    </Dialog>
  );
}

function SignOutChoices(props: { onSignOut: () => void; onClose: () => void }) {
  const [exported, setExported] = useState(false);
  const count = unsyncedSales.value;
  return (
    <>
      <p>
        {count === 1 ? "1 sale taken here is" : `${count} sales taken here are`} not on the server yet. Wait until they
        are sent, or export them (a file to keep) before signing out. They stay in this browser and are sent at the next
        sign-in.
      </p>
      <div class="dialog-actions">
        <Button
          onClick={async () => {
            try {
              await exportOutbox();
              setExported(true);
            } catch (error) {
              toast(error instanceof Error ? error.message : "The export failed.", "error");
            }
          }}
        >
          Export unsynced sales
        </Button>
        <Button variant="danger" disabled={!exported && count > 0} onClick={props.onSignOut}>
          Sign out
        </Button>
        <Button variant="primary" onClick={props.onClose}>
          Stay signed in
        </Button>
      </div>
    </>
  );
}

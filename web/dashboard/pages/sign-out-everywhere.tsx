import { useState } from "preact/hooks";
import { revokeAllSessions } from "../../lib/api/sessions.ts";
import { session } from "../../lib/session.ts";
import { Button, Dialog, toast } from "../../ui/index.ts";

/**
 * "Sign out everywhere": every session of the owner ends, this one too, and every till is unpaired
 * (a lost phone, a password typed on someone else's computer). Asked once more in a dialog, since the
 * shop's tills stop until the owner pairs them again.
 */
export function SignOutEverywhere() {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button variant="danger" onClick={() => setAsking(true)}>
        Sign out everywhere
      </Button>
      <Dialog open={asking} title="Sign out everywhere?" onClose={() => setAsking(false)}>
        <p>
          Every session ends, this one too, and every till is unpaired: each till must be paired again (with your
          password) before it can sell.
        </p>
        <div class="dialog-actions">
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await revokeAllSessions();
                session.value = null;
              } catch (error) {
                toast(error instanceof Error ? error.message : "That did not work. Try again.", "error");
              } finally {
                setBusy(false);
              }
            }}
          >
            Sign out everywhere
          </Button>
          <Button onClick={() => setAsking(false)}>Cancel</Button>
        </div>
      </Dialog>
    </>
  );
}

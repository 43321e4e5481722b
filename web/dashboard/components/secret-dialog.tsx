import { useState } from "preact/hooks";
import { Button, Dialog } from "../../ui/index.ts";

/**
 * A secret shown once (a new API key, a webhook signing secret), with a copy button. The secret
 * lives only in the caller's state: closing the dialog or reloading the page forgets it.
 */
export function SecretDialog(props: { title: string; secret: string | undefined; note: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog
      open={props.secret !== undefined}
      title={props.title}
      onClose={() => {
        setCopied(false);
        props.onClose();
      }}
    >
      <p>{props.note}</p>
      <div class="secret-box">
        <code class="secret" data-testid="new-secret">
          {props.secret ?? ""}
        </code>
        <Button
          onClick={async () => {
            await navigator.clipboard.writeText(props.secret ?? "").catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <div class="dialog-actions">
        <Button variant="primary" onClick={props.onClose}>
          Done
        </Button>
      </div>
    </Dialog>
  );
}

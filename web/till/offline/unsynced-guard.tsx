import { useState } from "preact/hooks";
import { Button, toast } from "../../ui/index.ts";
import { exportOutbox, unsyncedSales } from "./outbox.ts";

/**
 * Stands before unpairing the till while sales taken here are unsynced: the owner waits until they
 * are sent, or exports them (a file to keep) first. They stay in this browser either way and are sent
 * once the till is paired again. `onCleared` is told whether the action may go ahead.
 */
export function UnsyncedGuard(props: { onCleared: (cleared: boolean) => void }) {
  const [exported, setExported] = useState(false);
  const count = unsyncedSales.value;
  if (count === 0) return null;
  return (
    <div class="unsynced-guard" role="alert">
      <p>
        {count === 1 ? "1 sale taken here is" : `${count} sales taken here are`} not on the server yet. Wait until they
        are sent, or export them before unpairing. They stay in this browser and are sent once the till is paired again.
      </p>
      <Button
        disabled={exported}
        onClick={async () => {
          try {
            await exportOutbox();
            setExported(true);
            props.onCleared(true);
          } catch (error) {
            toast(error instanceof Error ? error.message : "The export failed.", "error");
          }
        }}
      >
        {exported ? "Exported" : "Export unsynced sales"}
      </Button>
    </div>
  );
}

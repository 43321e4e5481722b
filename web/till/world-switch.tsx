import { useState } from "preact/hooks";
import type { WorldName } from "../lib/api.ts";
import { liveAvailable, setWorld } from "../lib/session.ts";
import { Button, Dialog } from "../ui/index.ts";
import { cart, cartUnits, clearCart } from "./sell/cart.ts";

/**
 * TEST or LIVE, always on screen. A cart belongs to the world it was rung up in, so switching with
 * items in it asks first and starts an empty cart. LIVE stays shut until the account is active.
 */
export function WorldSwitch(props: { active: WorldName }) {
  const [asking, setAsking] = useState<WorldName | undefined>(undefined);
  const choose = (next: WorldName) => {
    if (next === props.active) return;
    if (cart.value.length > 0) {
      setAsking(next);
      return;
    }
    setWorld(next);
  };
  return (
    <fieldset class="world-switch">
      <legend class="visually-hidden">World</legend>
      <Button
        variant={props.active === "test" ? "primary" : "secondary"}
        aria-pressed={props.active === "test"}
        onClick={() => choose("test")}
      >
        Test
      </Button>
      <Button
        variant={props.active === "live" ? "primary" : "secondary"}
        aria-pressed={props.active === "live"}
        disabled={!liveAvailable.value}
        title={liveAvailable.value ? undefined : "LIVE opens once the account is active"}
        onClick={() => choose("live")}
      >
        Live
      </Button>
      {liveAvailable.value ? null : <span class="muted small">LIVE opens once your account is active</span>}
      <Dialog
        open={asking !== undefined}
        title={`Switch to ${asking === "live" ? "LIVE" : "TEST"}?`}
        onClose={() => setAsking(undefined)}
      >
        <p>
          The cart has {cartUnits.value} item{cartUnits.value === 1 ? "" : "s"}. Switching empties it: a sale stays in
          the world it was started in.
        </p>
        <div class="dialog-actions">
          <Button onClick={() => setAsking(undefined)}>Keep the cart</Button>
          <Button
            variant="danger"
            onClick={() => {
              clearCart();
              if (asking !== undefined) setWorld(asking);
              setAsking(undefined);
            }}
          >
            Empty cart and switch
          </Button>
        </div>
      </Dialog>
    </fieldset>
  );
}

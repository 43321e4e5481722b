import { navigate } from "../../lib/router.ts";
import { Button, Dialog } from "../../ui/index.ts";

/** Cash needs an open drawer (the API refuses a cash sale without one): this says so and leads there. */
export function DrawerPrompt(props: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={props.open} title="Open the drawer first" onClose={props.onClose}>
      <p>
        Cash sales go into this till's drawer. Count the opening float and open the drawer, then take the payment. The
        cart is kept.
      </p>
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Back</Button>
        <Button variant="primary" onClick={() => navigate("/till/drawer")}>
          Open the drawer
        </Button>
      </div>
    </Dialog>
  );
}

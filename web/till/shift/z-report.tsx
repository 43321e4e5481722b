import { useState } from "preact/hooks";
import { formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { session } from "../../lib/session.ts";
import { Button, Link } from "../../ui/index.ts";
import { DrawerFigures } from "./drawer-figures.tsx";
import { getShift } from "./shift-api.ts";

type Paper = "80mm" | "a4";

/**
 * The Z report of a shift, a till page printed by the browser. The paper is chosen on screen: the
 * report's class names a CSS named page (`@page z-80mm` 80 mm wide, `@page z-a4` A4, till.css), so one
 * page prints on either without a second stylesheet. A till page rather than a server-rendered one:
 * the report needs the till's session (it is not public like a receipt) and reuses the drawer's table.
 */
export function ZReport(props: { shiftId: string }) {
  const [paper, setPaper] = useState<Paper>("80mm");
  const [shift] = useResource(() => getShift(props.shiftId), [props.shiftId]);
  return (
    <main id="main" class={`z-report paper-${paper}`} tabIndex={-1}>
      <div class="no-print z-actions">
        <Link href="/till/drawer">Back to the drawer</Link>
        <fieldset class="paper-choice">
          <legend>Paper</legend>
          <Button aria-pressed={paper === "80mm"} onClick={() => setPaper("80mm")}>
            80 mm roll
          </Button>
          <Button aria-pressed={paper === "a4"} onClick={() => setPaper("a4")}>
            A4
          </Button>
        </fieldset>
        <Button variant="primary" onClick={() => window.print()}>
          Print
        </Button>
      </div>
      {shift.state === "failed" ? (
        <p class="form-error" role="alert">
          {shift.error.message}
        </p>
      ) : null}
      {shift.state === "loaded" ? (
        <article class="z-sheet">
          <h1>Z report</h1>
          <p>{session.value?.merchant.name}</p>
          <dl class="z-meta">
            <dt>Till</dt>
            <dd>{shift.value.till_id}</dd>
            <dt>Shift</dt>
            <dd>{shift.value.id}</dd>
            <dt>Opened</dt>
            <dd>{formatDateTime(shift.value.opened_at)}</dd>
            <dt>Closed</dt>
            <dd>{shift.value.closed_at === null ? "still open" : formatDateTime(shift.value.closed_at)}</dd>
            {shift.value.livemode ? null : (
              <>
                <dt>World</dt>
                <dd>TEST (practice)</dd>
              </>
            )}
          </dl>
          <DrawerFigures shift={shift.value} caption="Cash per currency" />
          {shift.value.close_note === null ? null : <p>Note: {shift.value.close_note}</p>}
        </article>
      ) : null}
    </main>
  );
}

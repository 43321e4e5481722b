import { useState } from "preact/hooks";
import { formatMoney } from "../../../../src/kernel/money.ts";
import { listCashMoves } from "../../../lib/api/shifts.ts";
import { formatDateTime } from "../../../lib/format.ts";
import { useResource } from "../../../lib/resource.ts";
import { MOVE_KINDS, ZReportView } from "../../../reports/index.ts";
import { Button, Link, Table, toast } from "../../../ui/index.ts";
import { BASE, salePath } from "../../paths.ts";
import { Status } from "../shared.tsx";
import { useActorNames } from "./actors.tsx";
import type { CashMove } from "./types.ts";

/**
 * One shift: its Z report (the till's too, web/reports), printed by the browser, and below it the
 * drawer's full journal, each cash sale linked to its sale (on screen only: a long shift has hundreds).
 */
export function ShiftDetailPage(props: { shiftId: string }) {
  return (
    <ZReportView shiftId={props.shiftId} nav={<Link href={`${BASE}/shifts`}>All shifts</Link>}>
      <CashJournal shiftId={props.shiftId} />
    </ZReportView>
  );
}

function CashJournal(props: { shiftId: string }) {
  const [firstMoves] = useResource(() => listCashMoves(props.shiftId), [props.shiftId]);
  // Pages after the first, appended by "More cash moves" (a long shift has hundreds of sales).
  const [more, setMore] = useState<{ data: CashMove[]; next: string | null } | undefined>(undefined);
  const [loadingMore, setLoadingMore] = useState(false);
  const nameOf = useActorNames();
  const next = firstMoves.state !== "loaded" ? null : more === undefined ? firstMoves.value.next_cursor : more.next;
  return (
    <section class="no-print" aria-labelledby="moves-title">
      <h2 id="moves-title">Cash moves</h2>
      {firstMoves.state === "loaded" ? (
        <>
          <Table
            caption="Cash moves, oldest first"
            rows={[...firstMoves.value.data, ...(more?.data ?? [])]}
            rowKey={(move) => move.id}
            empty="No cash moves."
            columns={[
              { header: "Time", cell: (move) => formatDateTime(move.created_at) },
              { header: "Move", cell: (move) => MOVE_KINDS[move.kind] },
              { header: "Amount", numeric: true, cell: (move) => formatMoney(move.currency, move.amount_cents) },
              {
                header: "Detail",
                cell: (move) =>
                  move.sale_id === null ? (
                    (move.reason ?? "—")
                  ) : (
                    <Link href={salePath(move.sale_id)}>{move.return_id === null ? "Sale" : "Sale returned"}</Link>
                  ),
              },
              { header: "By", cell: (move) => nameOf(move.actor) },
            ]}
          />
          {next === null ? null : (
            <div class="pager">
              <Button
                busy={loadingMore}
                onClick={async () => {
                  setLoadingMore(true);
                  try {
                    const page = await listCashMoves(props.shiftId, { cursor: next });
                    setMore({ data: [...(more?.data ?? []), ...page.data], next: page.next_cursor });
                  } catch (caught) {
                    toast(caught instanceof Error ? caught.message : "The cash moves did not load.", "error");
                  } finally {
                    setLoadingMore(false);
                  }
                }}
              >
                More cash moves
              </Button>
            </div>
          )}
        </>
      ) : (
        <Status resource={firstMoves} />
      )}
    </section>
  );
}

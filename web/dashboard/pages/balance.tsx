import { useState } from "preact/hooks";
import { type Currency, formatMoney } from "../../../src/kernel/money.ts";
import type { Page } from "../../lib/api.ts";
import { saveFile } from "../../lib/download.ts";
import { dateInputValue, formatDateTime, localDayEnd, localDayStart, startOfDay } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { api } from "../../lib/session.ts";
import { Button, Field, Table, toast } from "../../ui/index.ts";
import { Status } from "./shared.tsx";

type LedgerEntry = {
  id: string;
  entry_type: string;
  currency: Currency;
  amount_cents: number;
  balance_after_cents: number;
  description: string;
  source: { type: string; id: string };
  created_at: string;
};

/** The current world's ledger entries, newest first, and its statement as a CSV file for chosen days. */
export function BalancePage() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const [entries] = useResource(
    () => api.get<Page<LedgerEntry>>("/v1/ledger", { query: { limit: 20, cursor } }),
    [cursor],
  );
  return (
    <>
      <h1>Balance</h1>
      <StatementForm />
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">Ledger entries</h2>
        {entries.state === "loaded" ? (
          <>
            <Table
              caption={`Ledger entries, page ${cursors.length}`}
              rows={entries.value.data}
              rowKey={(entry) => entry.id}
              empty="No entries yet."
              columns={[
                { header: "When", cell: (entry) => formatDateTime(entry.created_at) },
                { header: "Type", cell: (entry) => entry.entry_type },
                { header: "Description", cell: (entry) => entry.description },
                {
                  header: "Amount",
                  numeric: true,
                  cell: (entry) => formatMoney(entry.currency, entry.amount_cents),
                },
                {
                  header: "Balance after",
                  numeric: true,
                  cell: (entry) => formatMoney(entry.currency, entry.balance_after_cents),
                },
              ]}
            />
            <div class="pager">
              <Button disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Previous page
              </Button>
              <Button
                disabled={!entries.value.has_more}
                onClick={() => setCursors([...cursors, entries.value.next_cursor ?? undefined])}
              >
                Next page
              </Button>
            </div>
          </>
        ) : (
          <Status resource={entries} />
        )}
      </section>
    </>
  );
}

/** Local days in, the statement's instants out: `from` at its day's start, `to` at the end of its day. */
function StatementForm() {
  const [from, setFrom] = useState(dateInputValue(startOfDay(30)));
  const [to, setTo] = useState(dateInputValue(new Date()));
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="statement-title">
      <h2 id="statement-title">Statement</h2>
      <form
        class="row card"
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          try {
            const file = await api.download("/v1/statement.csv", {
              query: { from: localDayStart(from), to: localDayEnd(to) },
            });
            saveFile({ blob: file.blob, filename: file.filename ?? "statement.csv" });
          } catch (caught) {
            toast(caught instanceof Error ? caught.message : "The statement could not be made.", "error");
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Statement from" type="date" required value={from} onValue={setFrom} />
        <Field label="Statement to (inclusive)" type="date" required value={to} onValue={setTo} />
        <Button type="submit" variant="primary" busy={busy}>
          Download CSV
        </Button>
      </form>
    </section>
  );
}

import { useState } from "preact/hooks";
import { formatMoney } from "../../../src/kernel/money.ts";
import { downloadStatement, getBalance, type LedgerEntry, listLedger } from "../../lib/api.ts";
import { saveFile } from "../../lib/download.ts";
import { dateInputValue, formatDateTime, localDayEnd, localDayStart, startOfDay } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { liveAvailable, world } from "../../lib/session.ts";
import { Button, Field, Link, Pager, Table, toast, useCursorPages } from "../../ui/index.ts";
import { AvailableBalance } from "../components/available-balance.tsx";
import { paymentPath } from "../paths.ts";
import { Status } from "./shared.tsx";

/**
 * The current world's available balance, its ledger entries (newest first; a payment's entry shows the
 * merchant's own reference and links to the payment) and its statement as a CSV file for chosen days.
 */
export function BalancePage() {
  const [balance] = useResource(() => getBalance(), []);
  const pages = useCursorPages();
  const [entries] = useResource(() => listLedger({ limit: 20, cursor: pages.cursor }), [pages.cursor]);
  return (
    <>
      <h1>Balance</h1>
      <AvailableBalance balance={balance} title="Available" />
      <StatementForm />
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">Ledger entries</h2>
        {entries.state === "loaded" ? (
          <>
            <Table
              caption={`Ledger entries, page ${pages.number}`}
              rows={entries.value.data}
              rowKey={(entry) => entry.id}
              empty="No entries yet."
              columns={[
                { header: "When", cell: (entry) => formatDateTime(entry.created_at) },
                { header: "Type", cell: (entry) => entry.entry_type },
                { header: "Reference", cell: (entry) => <EntryReference entry={entry} /> },
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
            <Pager {...pages.pagerOf(entries.value)} />
          </>
        ) : (
          <Status resource={entries} />
        )}
      </section>
    </>
  );
}

/** A payment's entry: the merchant's reference (or the description without one), linked to the payment. */
function EntryReference(props: { entry: LedgerEntry }) {
  const { source, description } = props.entry;
  if (source.type !== "payment") return <>{description}</>;
  return <Link href={paymentPath(source.id)}>{source.merchant_ref ?? description}</Link>;
}

/**
 * The statement's file name, by the local days chosen (`statement-test-2026-10-29-to-2026-11-28.csv`).
 * It is decided here only: the server sees instants, not the person's days, so its name is not used.
 */
export function statementFileName(fileWorld: "test" | "live", from: string, to: string): string {
  return `statement-${fileWorld}-${from}-to-${to}.csv`;
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
            const file = await downloadStatement({ from: localDayStart(from), to: localDayEnd(to) });
            const fileWorld = world.value === "live" && liveAvailable.value ? "live" : "test";
            saveFile({ blob: file.blob, filename: statementFileName(fileWorld, from, to) });
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

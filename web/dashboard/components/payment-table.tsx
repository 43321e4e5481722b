import { formatMoney } from "../../../src/kernel/money.ts";
import { formatDateTime } from "../../lib/format.ts";
import { Link, Table } from "../../ui/index.ts";
import { type Payment, PaymentStatus } from "../pages/shared.tsx";
import { paymentPath } from "../paths.ts";

/** The one table of payments (Home's latest and the Payments list): each row links to its detail. */
export function PaymentTable(props: { caption: string; payments: readonly Payment[]; empty: string }) {
  return (
    <Table
      caption={props.caption}
      rows={props.payments}
      rowKey={(payment) => payment.id}
      empty={props.empty}
      columns={[
        { header: "Created", cell: (payment) => formatDateTime(payment.created_at) },
        { header: "Status", cell: (payment) => <PaymentStatus status={payment.status} /> },
        { header: "Amount", numeric: true, cell: (payment) => formatMoney(payment.currency, payment.amount_cents) },
        { header: "Reference", cell: (payment) => payment.merchant_ref ?? "—" },
        {
          header: "ID",
          cell: (payment) => (
            <Link href={paymentPath(payment.id)}>
              <code>{payment.id}</code>
            </Link>
          ),
        },
      ]}
    />
  );
}

import { formatMoney } from "../../../src/kernel/money.ts";
import { type Event, getPayment, listDeliveries, listEvents, type WebhookDelivery } from "../../lib/api.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useResource } from "../../lib/resource.ts";
import { Link } from "../../ui/index.ts";
import { BASE } from "../paths.ts";
import { AttemptList } from "./developers/webhooks/attempts.tsx";
import { LatePaymentCard } from "./late-payment.tsx";
import { type Payment, PaymentStatus, Status } from "./shared.tsx";

type Timeline = { payment: Payment; events: { event: Event; deliveries: WebhookDelivery[] }[] };

/** A payment events page holds all of them: a payment has a handful (created, then paid, expired or failed). */
const EVENTS_PER_PAYMENT_MAX = 100;

async function loadTimeline(paymentId: string): Promise<Timeline> {
  const [payment, events] = await Promise.all([
    getPayment(paymentId),
    listEvents({ payment_id: paymentId, limit: EVENTS_PER_PAYMENT_MAX }),
  ]);
  const deliveries = await Promise.all(events.data.map((event) => listDeliveries({ event_id: event.id, limit: 100 })));
  return {
    payment,
    events: events.data.map((event, index) => ({ event, deliveries: deliveries[index]?.data ?? [] })),
  };
}

/** One payment: its figures, the states it went through, its events and each event's webhook deliveries. */
export function PaymentDetailPage(props: { paymentId: string }) {
  const [timeline] = useResource(() => loadTimeline(props.paymentId), [props.paymentId]);
  return (
    <>
      <p>
        <Link href={`${BASE}/payments`}>← Payments</Link>
      </p>
      <h1>Payment {props.paymentId}</h1>
      {timeline.state === "loaded" ? <Detail timeline={timeline.value} /> : <Status resource={timeline} />}
    </>
  );
}

function Detail(props: { timeline: Timeline }) {
  const { payment } = props.timeline;
  return (
    <>
      <PaymentFacts payment={payment} />
      {payment.late_payment === null ? null : (
        <LatePaymentCard payment={{ ...payment, late_payment: payment.late_payment }} />
      )}
      <PaymentTimeline timeline={props.timeline} />
    </>
  );
}

/** The payment's figures and references. */
function PaymentFacts({ payment }: { payment: Payment }) {
  return (
    <dl class="card facts">
      <dt>Status</dt>
      <dd>
        <PaymentStatus status={payment.status} />
      </dd>
      <dt>Amount</dt>
      <dd>{formatMoney(payment.currency, payment.amount_cents)}</dd>
      <dt>Fee</dt>
      <dd>{formatMoney(payment.currency, payment.fee_cents)}</dd>
      <dt>Reference</dt>
      <dd>{payment.merchant_ref ?? "—"}</dd>
      <dt>Wallet reference</dt>
      <dd>
        <code>{payment.reference}</code>
      </dd>
    </dl>
  );
}

/** The states the payment went through, then its events, each with its webhook deliveries. */
function PaymentTimeline(props: { timeline: Timeline }) {
  const { payment, events } = props.timeline;
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <ol class="timeline">
        <li>
          <strong>Created</strong> · {formatDateTime(payment.created_at)}
        </li>
        {payment.status === "pending" ? (
          <li>
            <strong>Waiting for the payer</strong> · the code expires {formatDateTime(payment.expires_at)}
          </li>
        ) : null}
        {payment.paid_at === null ? null : (
          <li>
            <strong>Paid</strong> · {formatDateTime(payment.paid_at)}
          </li>
        )}
        {payment.cancelled_at === null ? null : (
          <li>
            <strong>Cancelled</strong> · {formatDateTime(payment.cancelled_at)}
          </li>
        )}
        {payment.failure_reason === null ? null : (
          <li>
            <strong>Failed</strong> · {payment.failure_reason}
          </li>
        )}
        {events.map(({ event, deliveries }) => (
          <li key={event.id} data-testid="timeline-event">
            <strong>Event {event.type}</strong> · {formatDateTime(event.created_at)} · <code>{event.id}</code>
            {deliveries.length === 0 ? (
              <p class="muted">No webhook endpoint received it.</p>
            ) : (
              <ul>
                {deliveries.map((delivery) => (
                  <li key={delivery.id} data-testid="timeline-delivery">
                    Webhook delivery <code>{delivery.id}</code>:{" "}
                    <span class={`status delivery-${delivery.status}`}>{delivery.status}</span>
                    {delivery.next_attempt_at === null ? null : (
                      <span> · next attempt {formatDateTime(delivery.next_attempt_at)}</span>
                    )}{" "}
                    <AttemptList delivery={delivery} />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

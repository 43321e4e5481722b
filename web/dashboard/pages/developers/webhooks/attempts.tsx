import type { WebhookDelivery } from "../../../../lib/api.ts";
import { formatDateTime } from "../../../../lib/format.ts";

/** A delivery's attempts, oldest first: when, the receiver's HTTP status or the error, latency, excerpt. */
export function AttemptList(props: { delivery: WebhookDelivery }) {
  const { attempts } = props.delivery;
  if (attempts.length === 0) {
    return <span class="muted">No attempt yet</span>;
  }
  return (
    <details class="attempts">
      <summary>
        {attempts.length} {attempts.length === 1 ? "attempt" : "attempts"}
      </summary>
      <ol>
        {attempts.map((attempt) => (
          <li key={attempt.attempt} data-testid="attempt">
            <span>{formatDateTime(attempt.started_at)}</span> ·{" "}
            <span class={attempt.succeeded ? "status status-paid" : "status status-failed"}>
              {attempt.response_status === null ? "no response" : `HTTP ${attempt.response_status}`}
            </span>{" "}
            · <span>{attempt.duration_ms} ms</span>
            {attempt.error === null ? null : <span> · {attempt.error}</span>}
            {attempt.response_excerpt === null || attempt.response_excerpt === "" ? null : (
              <pre class="excerpt">{attempt.response_excerpt}</pre>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}

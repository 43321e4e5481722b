import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * Trace context across the job queue. A job is enqueued inside the transaction of the request (or job)
 * that needs it, and runs later in another process: the W3C `traceparent` of the enqueuing span
 * travels in the job's payload, and the job's span continues that trace, so one trace shows "create
 * payment → poll → settle → deliver webhook". Outgoing HTTP calls made inside the job's span (gateway,
 * webhooks) carry `traceparent` through the HTTP instrumentation.
 *
 * With tracing off (the default in dev and tests) no propagator is registered: `currentTraceparent()`
 * is null and job spans are non-recording, at the cost of a function call.
 */

const tracer = trace.getTracer("pos-platform");

/** The active span's `traceparent`, or null when there is none (tracing off, or outside any span). */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Runs a job in its own span, a child of the span whose `traceparent` the payload carries. */
export async function inJobSpan<T>(
  job: { pool: string; task: string; jobId: string; attempt: number; payload: unknown },
  run: () => Promise<T>,
): Promise<T> {
  const traceparent = traceparentOf(job.payload);
  const parent = traceparent === null ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent });
  return tracer.startActiveSpan(
    `job ${job.task}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "graphile_worker",
        "messaging.destination.name": job.task,
        "messaging.message.id": job.jobId,
        "pos.worker.pool": job.pool,
        "pos.job.attempt": job.attempt,
      },
    },
    parent,
    async (span: Span) => {
      try {
        return await run();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

function traceparentOf(payload: unknown): string | null {
  if (typeof payload !== "object" || payload === null) {
    return null;
  }
  const value = (payload as { traceparent?: unknown }).traceparent;
  return typeof value === "string" ? value : null;
}

/** The trace and span ids of the active span, for log lines; empty outside a recording span. */
export function traceIdsForLog(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !trace.isSpanContextValid(spanContext)) {
    return {};
  }
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

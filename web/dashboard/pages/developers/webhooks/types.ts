/** The webhook objects as GET /v1/webhook_endpoints and the delivery log answer them. */

export type WebhookEndpoint = {
  id: string;
  url: string;
  event_types: string[];
  active: boolean;
  secret_last4: string;
  previous_secret_expires_at: string | null;
  created_at: string;
  /** Only in the answer that made or rolled the secret. */
  secret?: string;
};

export type DeliveryAttempt = {
  attempt: number;
  started_at: string;
  duration_ms: number;
  response_status: number | null;
  response_excerpt: string | null;
  error: string | null;
  succeeded: boolean;
};

export type WebhookDelivery = {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: "pending" | "succeeded" | "dead" | "canceled";
  attempt_count: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  attempts: DeliveryAttempt[];
};

import type { startWebhookSink } from "../../load-tests/webhook-sink.ts";
import { ADMIN_TOKEN } from "./deployment.ts";

/** The events each chaos merchant subscribes its webhook endpoint to. */
export const SUBSCRIBED_EVENTS = ["payment.paid", "payout.confirmed", "payout.failed"];

/**
 * A merchant as an operator provisions one through the admin API: a verified payout destination and a
 * webhook endpoint on the run's sink, which trusts its secret. Returns its test key.
 */
export async function provisionMerchant(
  apiUrl: string,
  index: number,
  sink: Awaited<ReturnType<typeof startWebhookSink>>,
) {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  const created = await fetch(`${apiUrl}/admin/v1/merchants`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({
      name: `Chaos ${index}`,
      email: `chaos-${index}@example.com`,
      password: "chaos run password",
    }),
  });
  if (created.status !== 201) {
    throw new Error(`provisioning a merchant failed: ${created.status} ${await created.text()}`);
  }
  const merchant = (await created.json()) as { id: string; test_secret_key: string };
  const destination = await fetch(`${apiUrl}/admin/v1/merchants/${merchant.id}/payout_destination`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ msisdn: `26377100000${index}`, verified: true }),
  });
  if (destination.status !== 200) {
    throw new Error(`setting the payout destination failed: ${destination.status} ${await destination.text()}`);
  }
  const endpoint = await fetch(`${apiUrl}/v1/webhook_endpoints`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.test_secret_key}`, "content-type": "application/json" },
    body: JSON.stringify({ url: sink.urlFor(index), event_types: SUBSCRIBED_EVENTS }),
  });
  if (endpoint.status !== 201) {
    throw new Error(`registering a webhook endpoint failed: ${endpoint.status} ${await endpoint.text()}`);
  }
  sink.trust(index, ((await endpoint.json()) as { secret: string }).secret);
  return { key: merchant.test_secret_key };
}

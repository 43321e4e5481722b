import type { Database } from "../../platform/db/pool.ts";
import type { RequestClient } from "../../platform/http/route.ts";
import { newId } from "../../platform/ids.ts";
import { recordAuditEntry } from "../audit/index.ts";
import { clientColumns } from "./password-check.ts";
import * as queries from "./queries.ts";
import { hashToken } from "./tokens.ts";

type AuditEntry = Parameters<typeof recordAuditEntry>[1];

/**
 * Opens a session for `token` in one transaction, as a dashboard sign-in and a till's device both do:
 * the older session the browser presented (its cookie) is revoked, the new one is stored by its
 * token's hash, and its opening is audited as `opened.action` by `opened.actor`.
 */
export async function openSession(
  database: Database,
  session: Omit<Parameters<typeof queries.insertSession>[1], "id" | "tokenHash" | "userAgent" | "clientAddress"> & {
    token: string;
    presented: string | undefined;
    client: RequestClient;
    opened: Pick<AuditEntry, "action" | "actor">;
  },
) {
  const { token, presented, client, opened, ...columns } = session;
  const { address, userAgent } = clientColumns(client);
  return database.transaction(async (transaction) => {
    if (presented !== undefined) {
      await queries.revokeSessionByToken(transaction, hashToken(presented));
    }
    const row = await queries.insertSession(transaction, {
      ...columns,
      id: newId("ses"),
      tokenHash: hashToken(token),
      userAgent,
      clientAddress: address,
    });
    await recordAuditEntry(transaction, {
      merchantId: columns.merchantId,
      ...opened,
      livemode: null,
      target: { type: "session", id: row.id },
      client,
    });
    return row;
  });
}

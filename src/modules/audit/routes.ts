import { z } from "zod";
import { cursorSchema, decodeCursor, limitSchema, pageSchema, toPage } from "../../platform/http/pagination.ts";
import { type AnyRoute, defineRoute } from "../../platform/http/route.ts";
import { type AuditRow, auditActions, selectAuditEntries } from "./queries.ts";

const auditEntrySchema = z
  .object({
    id: z.string(),
    object: z.literal("audit_entry"),
    action: z.enum(auditActions),
    actor: z.object({
      type: z.string(),
      id: z.string().nullable(),
      name: z.string().nullable().meta({
        description: "Who it is: the owner's email, a cashier's or till's name, or `API key …last4`; null if unknown.",
      }),
    }),
    livemode: z.boolean().nullable(),
    target: z.object({ type: z.string(), id: z.string() }).nullable(),
    client_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "AuditEntry" });

const auditQuery = z.object({ limit: limitSchema({ max: 100, fallback: 25 }), cursor: cursorSchema });

function presentAuditEntry(row: AuditRow): z.infer<typeof auditEntrySchema> {
  return {
    id: row.id,
    object: "audit_entry",
    action: row.action as z.infer<typeof auditEntrySchema>["action"],
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    livemode: row.livemode,
    target: row.target_type === null || row.target_id === null ? null : { type: row.target_type, id: row.target_id },
    client_address: row.client_address,
    user_agent: row.user_agent,
    created_at: row.created_at.toISOString(),
  };
}

export const auditRoutes: AnyRoute[] = [
  defineRoute({
    method: "get",
    path: "/v1/audit_log",
    operationId: "listAuditLog",
    summary: "Who did what on the account (sign-ins, password changes, keys minted, rolled, revoked), newest first",
    tags: ["Account"],
    auth: { owner: "session" },
    request: { query: auditQuery },
    responses: { 200: { description: "A page of entries, both worlds.", schema: pageSchema(auditEntrySchema) } },
    handler: async ({ database, tenant, query }) => {
      const beforeSeq = query.cursor === undefined ? undefined : decodeCursor(query.cursor, z.tuple([z.number()]))[0];
      const rows = await selectAuditEntries(database, tenant.merchantId, { limit: query.limit, beforeSeq });
      return { body: toPage(rows, { limit: query.limit, keyOf: (row) => [row.seq], present: presentAuditEntry }) };
    },
  }),
];

import { useResource } from "../../../lib/resource.ts";
import { api } from "../../../lib/session.ts";
import type { Actor, Cashier } from "./types.ts";

/**
 * Who did something, as a person reads it: a cashier switched in on a till by name, otherwise the
 * owner (signed in at the dashboard or the till) or an integration's API key. The cashiers are loaded
 * once per page that names actors.
 */
export function useActorNames(): (actor: Actor | null) => string {
  const [cashiers] = useResource(() => api.get<{ data: Cashier[] }>("/v1/cashiers"), []);
  const names = new Map(cashiers.state === "loaded" ? cashiers.value.data.map((row) => [row.id, row.name]) : []);
  return (actor) => {
    if (actor === null) return "—";
    if (actor.id.startsWith("csh_")) return names.get(actor.id) ?? actor.id;
    return actor.type === "api_key" ? "API key" : "Owner";
  };
}

import { type Actor, type Cashier, listCashiers, listTillDevices, type TillDevice } from "../../../lib/api.ts";
import { useResource } from "../../../lib/resource.ts";

/**
 * The shop's cashiers, and who did something as a person reads it: a cashier switched in on a till by
 * name, otherwise the owner (signed in at the dashboard or the till) or an integration's API key.
 */
export function useCashiers(): { cashiers: readonly Cashier[]; nameOf: (actor: Actor | null) => string } {
  const [loaded] = useResource(() => listCashiers(), []);
  const cashiers = loaded.state === "loaded" ? loaded.value.data : [];
  const names = new Map(cashiers.map((row) => [row.id, row.name]));
  const nameOf = (actor: Actor | null) => {
    if (actor === null) return "—";
    if (actor.id.startsWith("csh_")) return names.get(actor.id) ?? actor.id;
    return actor.type === "api_key" ? "API key" : "Owner";
  };
  return { cashiers, nameOf };
}

/** Who did something, by name (the cashiers are loaded once per page that names actors). */
export const useActorNames = () => useCashiers().nameOf;

/**
 * A till as a person reads it: a paired till names its drawer with its device id, shown by the name
 * it was paired under; a till that is not paired names itself (an id it made), shown as it is.
 */
export function useTills(): { devices: readonly TillDevice[]; tillName: (tillId: string | null) => string } {
  const [devices] = useResource(() => listTillDevices(), []);
  const list = devices.state === "loaded" ? devices.value.data : [];
  const names = new Map(list.map((device) => [device.id, device.name]));
  return { devices: list, tillName: (tillId) => (tillId === null ? "—" : (names.get(tillId) ?? tillId)) };
}

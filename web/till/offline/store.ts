import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { Currency } from "../../../src/kernel/money.ts";
import type { NewSale, WorldName } from "../../lib/api.ts";

/**
 * Where the till keeps the cash sales it has not yet handed to the server: IndexedDB, one database per
 * merchant, so a reload, a crash or a night with the power off loses none. A browser that refuses
 * IndexedDB (private mode) gets a store in memory: sales then survive until the page is closed only.
 */

/** Why the server refused a sale for good (a 4xx that no retry can change). */
export type Refusal = { status: number; code: string; message: string; at: string };

/** One queued cash sale: the exact request the till will send, and what the cashier is shown about it. */
export type OutboxEntry = {
  /** Queue order (IndexedDB's auto-increment key): replays go oldest first. */
  seq: number;
  client_sale_id: string;
  idempotency_key: string;
  world: WorldName;
  /** The POST /v1/sales body, stored whole (client_sale_id and taken_at included) and sent unchanged. */
  body: NewSale;
  /** When the sale was rung up (device clock), ISO 8601. */
  taken_at: string;
  total_cents: number;
  currency: Currency;
  /** Attempts that failed for a passing reason (network, server busy), and the last one's reason. */
  attempts: number;
  last_error: string | undefined;
  /** Set when the server refused it for good: the sale needs the cashier's attention. */
  refused: Refusal | undefined;
  /**
   * Set when the server answered 403 `manager_required` (a discount over the shop's limit): held
   * aside until a manager's PIN approves it, then sent again with the approval. Absent from entries
   * kept before this existed.
   */
  awaiting_manager?: Refusal | undefined;
  /** When the cashier last downloaded it in an export. */
  exported_at: string | undefined;
};

export type NewOutboxEntry = Omit<OutboxEntry, "seq">;

export type OutboxStore = {
  /** Every entry, oldest first. */
  all: () => Promise<OutboxEntry[]>;
  add: (entry: NewOutboxEntry) => Promise<OutboxEntry>;
  put: (entry: OutboxEntry) => Promise<void>;
  delete: (seq: number) => Promise<void>;
};

interface OutboxSchema extends DBSchema {
  sales: { key: number; value: OutboxEntry };
}

export async function openOutboxStore(merchantId: string): Promise<OutboxStore> {
  let database: IDBPDatabase<OutboxSchema>;
  try {
    database = await openDB<OutboxSchema>(`till-outbox-${merchantId}`, 1, {
      upgrade(upgrading) {
        upgrading.createObjectStore("sales", { keyPath: "seq", autoIncrement: true });
      },
    });
  } catch {
    return memoryOutboxStore();
  }
  return {
    all: () => database.getAll("sales"),
    add: async (entry) => {
      // The key path fills seq in; the entry is written before the sale is shown as complete.
      const seq = await database.add("sales", entry as OutboxEntry);
      return { ...entry, seq };
    },
    put: async (entry) => {
      await database.put("sales", entry);
    },
    delete: (seq) => database.delete("sales", seq),
  };
}

/** The same store over a Map (no persistence). */
export function memoryOutboxStore(): OutboxStore {
  const entries = new Map<number, OutboxEntry>();
  let lastSeq = 0;
  return {
    all: async () => [...entries.values()].sort((a, b) => a.seq - b.seq),
    add: async (entry) => {
      lastSeq += 1;
      const stored = { ...entry, seq: lastSeq };
      entries.set(lastSeq, stored);
      return stored;
    },
    put: async (entry) => {
      entries.set(entry.seq, entry);
    },
    delete: async (seq) => {
      entries.delete(seq);
    },
  };
}

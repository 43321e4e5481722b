import { api } from "../session.ts";
import { type CallOptions, call, type QueryOf, type Schema } from "./call.ts";

/** The world's balance, its ledger and the CSV statement. */
export type Balance = Schema<"Balance">;
export type LedgerEntry = Schema<"LedgerEntry">;

export const getBalance = (options?: CallOptions) => call("get", "/v1/balance", options);

export const listLedger = (query: QueryOf<"/v1/ledger", "get">) => call("get", "/v1/ledger", { query });

/** The statement as a file (its bytes and the name the server gave it). */
export const downloadStatement = (query: QueryOf<"/v1/statement.csv", "get">) =>
  api.download("/v1/statement.csv", { query });

import type { Logger } from "pino";
import {
  createPool,
  type DatabasePool,
  type DatabaseTransactionConnection,
  type DriverTypeParser,
  type Interceptor,
  sql,
} from "slonik";
import type { Config } from "../config.ts";

export { sql };
export type Database = DatabasePool;
/** A connection inside a transaction: the only thing that may write money, events and jobs together. */
export type Transaction = DatabaseTransactionConnection;
/** Either the pool or a transaction: for queries that work in both. */
export type Queryable = Pick<
  DatabasePool,
  "any" | "maybeOne" | "one" | "oneFirst" | "maybeOneFirst" | "query" | "exists"
>;

/**
 * int8 columns hold cents and counts. They are parsed to JavaScript numbers and refused when they
 * would lose precision (beyond 2^53 cents, far above any real balance), rather than silently rounded.
 */
const int8AsSafeNumber: DriverTypeParser = {
  name: "int8",
  parse: (value: string) => {
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) {
      throw new RangeError(`int8 value ${value} is outside the safe integer range`);
    }
    return parsed;
  },
};

/** timestamptz columns become `Date`s; the session time zone is UTC, so the text is unambiguous. */
const timestamptzAsDate: DriverTypeParser = {
  name: "timestamptz",
  parse: (value: string) => new Date(Date.parse(value)),
};

/**
 * slonik does not validate `sql.type(schema)` results by itself: this interceptor runs the schema on
 * every row and fails the query when the database returns something the code does not expect.
 */
const validateRows: Interceptor = {
  name: "validate-rows",
  transformRow: (context, query, row) => {
    const schema = context.resultParser;
    if (schema === undefined) {
      return row;
    }
    const result = schema["~standard"].validate(row);
    if (result instanceof Promise) {
      throw new TypeError("Row schemas must be synchronous");
    }
    if (result.issues !== undefined) {
      const detail = result.issues.map((issue) => `${issue.path?.join(".") ?? ""}: ${issue.message}`).join("; ");
      throw new TypeError(`Row failed validation (${detail}) for query: ${query.sql.slice(0, 200)}`);
    }
    return result.value as Record<string, never>;
  },
};

/**
 * Sends every statement unnamed. A named prepared statement (`sql.prepared`) lives in the server
 * session that parsed it; behind a transaction pooler that keeps none across transactions, the next
 * transaction may run on another server connection ("prepared statement ... does not exist") or on
 * one that already has it from another client ("... already exists"). An unnamed statement is
 * parsed, bound and run in one exchange, which any pooler carries: it costs a parse per execution.
 */
const unnamedStatements: Interceptor = {
  name: "unnamed-statements",
  transformQuery: (_context, query) => (query.name === undefined ? query : { ...query, name: undefined }),
};

export async function createDatabase(options: {
  url: string;
  poolSize: number;
  statementTimeoutMs: number;
  logger: Logger;
  applicationName: string;
  /** False behind a transaction pooler that keeps no prepared statements (see `unnamedStatements`). */
  preparedStatements?: boolean;
}): Promise<Database> {
  const url = new URL(options.url);
  url.searchParams.set("application_name", options.applicationName);
  // The session time zone is fixed at connect time, so no statement is needed per checkout.
  url.searchParams.set("options", "-c TimeZone=UTC");
  const database = await createPool(url.toString(), {
    maxPoolSize: options.poolSize,
    statementTimeout: options.statementTimeoutMs,
    idleInTransactionSessionTimeout: 60_000,
    connectionTimeout: 10_000,
    captureStackTrace: false,
    typeParsers: [int8AsSafeNumber, timestamptzAsDate],
    interceptors: options.preparedStatements === false ? [unnamedStatements, validateRows] : [validateRows],
    // slonik's default reset runs DISCARD ALL on every release: one extra round trip per query. The
    // application never changes session state (only SET LOCAL inside transactions), so nothing to reset.
    resetConnection: async () => {},
  });
  // slonik emits each failed query here as well as throwing it to the query's caller, which answers
  // it (a debit refused by the balance check is a 402, a lost race a 409) or logs it where it becomes
  // a 500 or a failed job. At error level here every refused payout was an alarm. The listener stays:
  // an emitted "error" without one would throw from slonik's own error path.
  database.on("error", (error) => options.logger.debug({ err: error }, "query failed (thrown to its caller)"));
  return database;
}

/** A deployment's pool, sized and timed by its configuration. */
export function createConfiguredDatabase(
  config: Pick<Config, "databasePoolSize" | "databaseStatementTimeoutMs" | "databasePreparedStatements">,
  options: { url: string; logger: Logger; applicationName: string },
): Promise<Database> {
  return createDatabase({
    ...options,
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    preparedStatements: config.databasePreparedStatements,
  });
}

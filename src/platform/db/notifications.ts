import pg from "pg";
import type { Logger } from "../telemetry/logger.ts";

/**
 * PostgreSQL LISTEN/NOTIFY for requests that wait (a till waiting for its wallet sale to be paid):
 * one dedicated connection per process carries every waiter, so a thousand waiting requests hold no
 * connection of the pool. It is opened by the first waiter and closed when the last one leaves, so an
 * idle process holds none.
 *
 * A waiter must re-read the state it waits for after `listening` resolves: a NOTIFY committed before
 * the LISTEN is not delivered. When the connection breaks, every waiter is woken (it re-reads and
 * answers); a waiter's own timeout and abort bound it whatever happens.
 */
export type Subscription = {
  /** Resolves once LISTEN is in effect; rejects when the connection cannot be made. */
  listening: Promise<void>;
  /** Resolves when the payload is notified, the connection breaks, the timeout passes or the signal aborts. */
  woken: Promise<"notified" | "timeout" | "aborted" | "disconnected">;
  /** Stops waiting (the waiter no longer needs it); the connection closes when no waiter is left. */
  cancel: () => void;
};

export type Notifications = {
  subscribe: (request: { channel: string; payload: string; timeoutMs: number; signal?: AbortSignal }) => Subscription;
};

type Waiter = { channel: string; payload: string; wake: (reason: Awaited<Subscription["woken"]>) => void };

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Longer than 70 lines on purpose: its four steps (connect, disconnect, listen, subscribe; none over
 * 30 lines) share the one connection and the set of waiters, which must change together.
 */
export function createNotifications(options: { url: string; logger: Logger; applicationName: string }): Notifications {
  const waiters = new Set<Waiter>();
  type Connection = { client: pg.Client; ready: Promise<unknown>; channels: Map<string, Promise<void>> };
  let connection: Connection | undefined;

  const disconnect = (reason: "idle" | "broken") => {
    const current = connection;
    connection = undefined;
    if (current === undefined) return;
    current.client.end().catch(() => {});
    if (reason === "broken") {
      for (const waiter of [...waiters]) waiter.wake("disconnected");
    }
  };

  const connect = () => {
    const client = new pg.Client({
      connectionString: options.url,
      application_name: options.applicationName,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    const opened: Connection = { client, ready: client.connect(), channels: new Map() };
    client.on("notification", (message) => {
      for (const waiter of [...waiters]) {
        if (waiter.channel === message.channel && waiter.payload === message.payload) waiter.wake("notified");
      }
    });
    client.on("error", (error) => {
      options.logger.warn({ err: error }, "notification connection lost");
      if (connection === opened) disconnect("broken");
    });
    opened.ready.catch(() => {
      if (connection === opened) disconnect("broken");
    });
    connection = opened;
    return opened;
  };

  const listen = (channel: string): Promise<void> => {
    const current = connection ?? connect();
    let listened = current.channels.get(channel);
    if (listened === undefined) {
      // The channel is an identifier the code chose (never input), quoted as one.
      listened = current.ready.then(async () => {
        await current.client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      });
      current.channels.set(channel, listened);
    }
    return listened;
  };

  return {
    subscribe: ({ channel, payload, timeoutMs, signal }) => {
      let wake: Waiter["wake"] = () => {};
      const woken = new Promise<Awaited<Subscription["woken"]>>((resolve) => {
        wake = resolve;
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waiter: Waiter = {
        channel,
        payload,
        wake: (reason) => {
          if (!waiters.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          wake(reason);
          if (waiters.size === 0) disconnect("idle");
        },
      };
      const onAbort = () => waiter.wake("aborted");
      waiters.add(waiter);
      timer = setTimeout(() => waiter.wake("timeout"), timeoutMs);
      signal?.addEventListener("abort", onAbort);
      if (signal?.aborted) onAbort();
      const listening = waiters.has(waiter) ? listen(channel) : Promise.resolve();
      listening.catch(() => waiter.wake("disconnected"));
      return { listening, woken, cancel: onAbort };
    },
  };
}

const shared = new Map<string, Notifications>();

/** The process's one hub per database (routes reach it through their configuration). */
export function sharedNotifications(url: string, logger: Logger): Notifications {
  let hub = shared.get(url);
  if (hub === undefined) {
    hub = createNotifications({ url, logger, applicationName: "notifications" });
    shared.set(url, hub);
  }
  return hub;
}

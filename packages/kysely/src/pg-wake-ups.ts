import type { Logger } from "@hireport/core";

/** A notification as node-postgres hands it to the listening client. */
export interface PgNotification {
  channel: string;
  payload?: string | undefined;
}

/** The part of a `pg` pool client that `postgresWakeUps` uses to listen. */
export interface PgListeningClient {
  query(text: string): Promise<unknown>;
  on(event: "notification", listener: (message: PgNotification) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  removeListener(event: "notification", listener: (message: PgNotification) => void): unknown;
  /** `true` (or an error) destroys the connection instead of returning it to the pool. */
  release(destroy?: boolean | Error): void;
}

/** The part of a `pg` Pool (node-postgres) that `postgresWakeUps` uses. */
export interface PgWakePool {
  query(text: string, values: unknown[]): Promise<unknown>;
  connect(): Promise<PgListeningClient>;
}

export interface PostgresWakeUpsOptions {
  /**
   * The `NOTIFY` channel: a lower-case SQL identifier (letters, digits, `_`; up to 63). Give each
   * database's processes the same one, and different hosts on one server different ones.
   * @default "hireport_events"
   */
  channel?: string;
  /** Where a failed `NOTIFY` and a lost listening connection are reported. @default console */
  logger?: Pick<Logger, "warn">;
  /**
   * How long `listen` waits before listening again after its connection was lost, in milliseconds;
   * it doubles after each failed try, up to 30 seconds. @default 1000
   */
  reconnectMs?: number;
}

export interface PostgresWakeUps {
  /**
   * For `createPublicApi({ onEvent })` in the app processes: sends `NOTIFY` on the channel, through
   * the pool, after a change has committed. One at a time: changes made while one is on its way send
   * one more after it, not one each. Never throws; a failure is logged and costs only latency (the
   * dispatcher's poll still finds the deliveries).
   */
  publish(): void;
  /**
   * For the dispatcher process: takes one connection of the pool for itself, runs `LISTEN` on it and
   * calls `wake` (the dispatcher's `notify`) on every notification of the channel, and once more
   * after each reconnection (a notification sent while it was not listening is lost). A lost
   * connection is replaced, after `reconnectMs`. Resolves once listening; rejects if the first
   * connection or `LISTEN` fails. Call it once.
   */
  listen(wake: () => void): Promise<void>;
  /**
   * Stops listening (its connection is closed, not returned to the pool) and waits for a `NOTIFY`
   * on its way. `publish` does nothing afterwards. Call it before ending the pool.
   */
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_RECONNECT_MS = 30_000;

/**
 * Wakes a webhook dispatcher in another process within milliseconds of a change, through Postgres's
 * own `LISTEN`/`NOTIFY` (nothing else to run). The app processes publish from `onEvent`; the
 * dispatcher process listens and calls `notify()`:
 *
 * ```ts
 * // every app process
 * const wakeUps = postgresWakeUps(pool);
 * const api = createPublicApi({ storage, onEvent: wakeUps.publish, ... });
 * // the dispatcher process
 * const wakeUps = postgresWakeUps(pool);
 * await wakeUps.listen(() => dispatcher.notify());
 * ```
 *
 * A notification carries nothing: the deliveries are already committed with their change, and the
 * dispatcher still polls (`pollIntervalMs`), so a lost notification delays, never loses, a delivery.
 *
 * @param pool the `pg` Pool given to Kysely's `PostgresDialect` (`publish` borrows a connection per
 *   `NOTIFY`; `listen` keeps one for itself: count it in the pool's `max`)
 */
export function postgresWakeUps(pool: PgWakePool, options: PostgresWakeUpsOptions = {}): PostgresWakeUps {
  const channel = options.channel ?? "hireport_events";
  if (!CHANNEL.test(channel)) {
    throw new TypeError(
      `postgresWakeUps: channel "${channel}" is not a lower-case SQL identifier (letters, digits and _, at most 63)`,
    );
  }
  const reconnectMs = options.reconnectMs ?? 1000;
  if (!Number.isInteger(reconnectMs) || reconnectMs < 1) {
    throw new TypeError(`postgresWakeUps: reconnectMs must be a positive integer (got ${reconnectMs})`);
  }
  const logger = options.logger ?? console;
  let closed = false;

  // ---- publishing: one NOTIFY on its way at a time, one more for whatever came meanwhile --------
  let sending: Promise<void> | null = null;
  let again = false;
  const send = (): void => {
    again = false;
    sending = pool
      // Its own transaction, committed without waiting for the disk: a notification lost in a crash
      // of the server only waits for the dispatcher's poll.
      .query("select set_config('synchronous_commit', 'off', true), pg_notify($1, '')", [channel])
      .then(
        () => undefined,
        (error: unknown) => {
          if (!closed)
            logger.warn("hireport: NOTIFY failed; the dispatcher finds the change at its next poll", {
              error: String(error),
            });
        },
      )
      .finally(() => {
        sending = null;
        if (again && !closed) send();
      });
  };

  // ---- listening: one connection of its own, replaced when lost ---------------------------------
  /** Closes the connection listening now, if any. */
  let drop: (() => void) | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let listening = false;

  /** Connects and listens; throws if that fails. Once listening, a lost connection is replaced. */
  const connect = async (given: () => void): Promise<void> => {
    // A throwing `wake` must not break the connection's event handling.
    const wake = () => {
      try {
        given();
      } catch (error) {
        logger.warn("hireport: the wake-up callback threw", { error: String(error) });
      }
    };
    const client = await pool.connect();
    let established = false;
    let dropped = false;
    const onNotification = (message: PgNotification) => {
      if (message.channel === channel) wake();
    };
    const close = (error?: Error): boolean => {
      if (dropped) return false;
      dropped = true;
      client.removeListener("notification", onNotification);
      client.release(error ?? true);
      return true;
    };
    const onLost = (error?: Error) => {
      // Before it listens, a lost connection fails `LISTEN` itself: the caller hears of it.
      if (!close(error) || !established || closed) return;
      logger.warn("hireport: the LISTEN connection was lost; listening again shortly", {
        error: String(error ?? "connection ended"),
      });
      schedule(given, reconnectMs);
    };
    client.on("notification", onNotification);
    client.on("error", onLost);
    client.on("end", () => onLost());
    try {
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      close();
      throw error;
    }
    if (dropped) throw new Error("the LISTEN connection ended as it started");
    if (closed) {
      close();
      return;
    }
    established = true;
    // Closing twice does nothing: `drop` may outlive a connection lost since.
    drop = () => void close();
    // Whatever was notified while nobody listened is in the database already: look once.
    wake();
  };

  const schedule = (wake: () => void, delay: number): void => {
    retry = setTimeout(() => {
      retry = null;
      if (closed) return;
      connect(wake).catch((error: unknown) => {
        if (closed) return;
        logger.warn("hireport: listening again failed; trying later", { error: String(error) });
        schedule(wake, Math.min(MAX_RECONNECT_MS, delay * 2));
      });
    }, delay);
    retry.unref?.();
  };

  return {
    publish() {
      if (closed) return;
      if (sending) again = true;
      else send();
    },
    async listen(wake) {
      if (listening) throw new Error("postgresWakeUps: listen() was called already");
      if (closed) throw new Error("postgresWakeUps: closed");
      listening = true;
      try {
        await connect(wake);
      } catch (error) {
        listening = false;
        throw error;
      }
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      drop?.();
      await sending;
    },
  };
}

/**
 * Named prepared statements for hireport's hot statements on a `pg` pool. Kysely hands node-postgres
 * SQL text and values, so every statement is parsed and planned again on every call; for the short
 * reads of each API request (key admission, a page of jobs), planning costs Postgres more than
 * running them. `hardenPgPool` wraps each client's `query` so that SQL starting with
 * {@link PREPARED_MARK} (only statements hireport compiles once per shape) goes out as a named
 * statement: node-postgres parses it once per connection and Postgres keeps its plan. Every other
 * query passes through untouched.
 */
import { createHash } from "node:crypto";
import { PREPARED_MARK } from "./compiled-queries";

/** Distinct statements named at most; past it, new ones run unnamed (they stay correct). */
const MAX_NAMES = 1000;

/** The `query` of a node-postgres client, as the wrapper sees it. */
export interface PgQueryClient {
  query(...args: never[]): unknown;
}

/** The statement names of one pool, shared by its clients. */
export interface StatementNames {
  name(text: string): string | undefined;
  /** A statement's plan no longer fits (its table changed): later calls use new names. */
  renew(): void;
}

export function statementNames(): StatementNames {
  const names = new Map<string, string>();
  let generation = 0;
  return {
    name(text) {
      let name = names.get(text);
      if (name === undefined) {
        if (names.size >= MAX_NAMES) return undefined;
        const digest = createHash("sha256").update(text).digest("hex").slice(0, 24);
        name = `hireport_${digest}_${generation}`;
        names.set(text, name);
      }
      return name;
    },
    renew() {
      generation += 1;
      names.clear();
    },
  };
}

/** Postgres's answer when a prepared statement's result type changed under it (a migration). */
function planChanged(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "0A000" && String(message).includes("cached plan must not change result type");
}

type Query = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Wraps `client.query`: a marked statement sent as `(text, values)` with no callback (how Kysely
 * calls it) runs as the named statement of its text. A plan Postgres refuses to reuse because the
 * table changed (`cached plan must not change result type`, after a migration) renews the names
 * and runs the statement once more under its new one.
 */
export function prepareMarkedStatements(client: PgQueryClient, names: StatementNames): void {
  const original = client.query as unknown as Query;
  const wrapped: Query = function (this: unknown, ...args: unknown[]) {
    const [text, values, callback] = args;
    if (typeof text !== "string" || !text.startsWith(PREPARED_MARK) || callback !== undefined) {
      return original.apply(this, args);
    }
    if (values !== undefined && !Array.isArray(values)) return original.apply(this, args);
    const run = () => {
      const name = names.name(text);
      return (
        name === undefined ? original.call(this, text, values) : original.call(this, { name, text, values })
      ) as Promise<unknown>;
    };
    return run().catch((error: unknown) => {
      if (!planChanged(error)) throw error;
      names.renew();
      return run();
    });
  };
  (client as unknown as { query: Query }).query = wrapped;
}

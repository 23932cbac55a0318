/**
 * The storages under test: the memory storage or @hireport/kysely on Postgres (the database), each
 * decorated by `withRedisAdmission` over the standalone Redis or a Cluster the test starts.
 */
import type { Logger, Storage } from "@hireport/core";
import { memoryStorage } from "@hireport/core/memory";
import type { ConformanceInspector } from "@hireport/core/testing";
import { kyselyStorage, migrateToLatest } from "@hireport/kysely";
import { kyselyConformanceInspector } from "@hireport/kysely/testing";
import type { Cluster, Redis } from "ioredis";
import { type AnyDb, createDb, dropTables, randomPrefix } from "../../../kysely/test/helpers/databases";
import type { RedisAdmissionOptions } from "../../src/options";
import { RedisKeys } from "../../src/redis-keys";
import { decorate, type RedisAdmissionInternals } from "../../src/with-redis-admission";
import { deletePrefix, standaloneRedis, startCluster, testPrefix } from "./redis-servers";

export type DatabaseKind = "memory" | "postgres";
export type RedisKind = "standalone" | "cluster";

/** A database storage with its raw reads. */
export interface Database {
  storage: Storage;
  /** The table prefix, on Postgres. */
  tablePrefix?: string;
  inspect: ConformanceInspector;
  close(): Promise<void>;
}

export async function openDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === "memory") {
    const storage = memoryStorage();
    return { storage, inspect: storage.raw, close: async () => {} };
  }
  let db: AnyDb;
  try {
    db = await createDb("postgres", { sqliteFile: "" });
    const tablePrefix = randomPrefix();
    const result = await migrateToLatest(db, { tablePrefix });
    if (result.error) throw result.error;
    return {
      tablePrefix,
      storage: kyselyStorage({ db, tablePrefix }),
      inspect: kyselyConformanceInspector({ db, tablePrefix }),
      async close() {
        await dropTables(db, tablePrefix);
        await db.destroy();
      },
    };
  } catch (error) {
    throw new Error(`@hireport/redis tests need Postgres (HIREPORT_PG_URL): ${String(error)}`, { cause: error });
  }
}

/** Redis clients of one kind, all on the same data, under one key prefix. */
export interface RedisSet {
  kind: RedisKind;
  prefix: string;
  /** The ports of the Cluster's masters. */
  ports?: number[];
  /** Another client of the same Redis (several instances of the host). */
  client(): Promise<Redis | Cluster>;
  close(): Promise<void>;
}

export async function openRedis(kind: RedisKind): Promise<RedisSet> {
  const prefix = testPrefix();
  const clients: (Redis | Cluster)[] = [];
  if (kind === "standalone") {
    return {
      kind,
      prefix,
      async client() {
        const client = await standaloneRedis();
        clients.push(client);
        return client;
      },
      async close() {
        if (clients[0]) await deletePrefix(clients[0], prefix);
        for (const client of clients) client.disconnect();
      },
    };
  }
  const cluster = await startCluster();
  return {
    kind,
    prefix,
    ports: cluster.ports,
    async client() {
      const client = await cluster.client();
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.disconnect();
      await cluster.destroy();
    },
  };
}

/** The decorated storage over `database`, on a new client of `redis`. */
export async function decorated(
  database: Database,
  redis: RedisSet,
  options: Partial<RedisAdmissionOptions> = {},
  internals: RedisAdmissionInternals = {},
): Promise<{ storage: Storage; client: Redis | Cluster }> {
  const client = options.redis ?? (await redis.client());
  // A generous timeout: on a busy test machine 100 ms would move some admissions to the database,
  // and these tests check what Redis counted. Falling back is faults.test.ts's subject.
  const storage = decorate(
    database.storage,
    { prefix: redis.prefix, timeoutMs: 5000, logger: failOnWarning, ...options, redis: client },
    internals,
  );
  return { storage, client };
}

/** The logger of the tests that expect Redis to answer: a fallback to the database fails them. */
const failOnWarning: Logger = {
  warn(message, details) {
    throw new Error(`Unexpected warning: ${message} ${JSON.stringify(details)}`);
  },
  error(message, details) {
    throw new Error(`Unexpected error: ${message} ${JSON.stringify(details)}`);
  },
};

/**
 * The database's raw reads, with rate-limit counters read from Redis first (where admission
 * counts), and removed from both.
 */
export function counterReads(
  inspect: ConformanceInspector,
  client: Redis | Cluster,
  prefix: string,
): ConformanceInspector {
  const keys = new RedisKeys(prefix);
  const rateLimitCount = async (key: string): Promise<number | null> => {
    const count = await client.hget(keys.counter(key), "c");
    if (count !== null) return Number(count);
    return inspect.rateLimitCount(key);
  };
  const removeRows: ConformanceInspector["removeRows"] = async (rows) => {
    // One key at a time: on a Cluster the counters sit in different slots.
    for (const key of rows.rateLimitKeys) await client.del(keys.counter(key));
    await inspect.removeRows(rows);
  };
  return new Proxy(inspect, {
    get(target, property) {
      if (property === "rateLimitCount") return rateLimitCount;
      if (property === "removeRows") return removeRows;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A logger that keeps what it is told. */
export function recordingLogger(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const record = (level: string) => (message: string) => {
    lines.push({ level, message });
  };
  return { lines, debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
}

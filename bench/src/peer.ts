/**
 * The peer stack of the API benchmarks (server kind `peer-fastify`): what a host team would
 * assemble by hand for hireport's job, written the plain way with the usual libraries.
 *
 * - Fastify + `@fastify/rate-limit` keeping its counters in Redis (ioredis), keyed by the bearer
 *   token; one window with a limit too high to refuse, so it measures cost only.
 * - A key lookup per request by the SHA-256 of the token in a real indexed Postgres table
 *   (`hireport_bench_peer_key`, unique index on the hash); 401 for an unknown or revoked key.
 * - The same list queries and JSON as the `bare-*` baselines (src/bare.ts), for the key's company.
 * - One INSERT into a usage table (`hireport_bench_peer_usage`) per answered request, awaited in
 *   Fastify's `onResponse` hook (after the answer, with its status).
 */
import { createHash } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import { type Kysely, sql } from "kysely";
import { bareApplications, bareJobs } from "./bare";
import { TABLE_PREFIX } from "./common";
import { BASE_PATH } from "./hireport";
import { LIST_COMPANY } from "./seed";

export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const KEY_TABLE = `${TABLE_PREFIX}peer_key`;
const USAGE_TABLE = `${TABLE_PREFIX}peer_usage`;
/** The peer's key row for the bench's key, and a revoked one (the bench checks that it is refused). */
const KEY_ID = "peer-bench";
const REVOKED_ID = "peer-bench-revoked";

interface PeerKey {
  id: string;
  company_id: string;
  revoked_at: Date | null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The token of a revoked key for the same company, made from the bench's key. */
export const revokedPeerKey = (key: string) => `${key}-revoked`;

/**
 * Creates the peer's tables if they are not there, empties its usage table, and stores the
 * SHA-256 of `key` (for company `bench-list`) and of `revokedPeerKey(key)` (revoked).
 */
export async function preparePeer(db: Kysely<unknown>, key: string): Promise<void> {
  await sql`create table if not exists ${sql.table(KEY_TABLE)} (
    id text primary key,
    company_id text not null,
    key_hash text not null unique,
    revoked_at timestamptz
  )`.execute(db);
  await sql`create table if not exists ${sql.table(USAGE_TABLE)} (
    id bigserial primary key,
    key_id text not null,
    method text not null,
    path text not null,
    status integer not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index if not exists ${sql.ref(`${USAGE_TABLE}_key_created`)}
    on ${sql.table(USAGE_TABLE)} (key_id, created_at)`.execute(db);
  await sql`truncate ${sql.table(USAGE_TABLE)}`.execute(db);
  await sql`delete from ${sql.table(KEY_TABLE)}`.execute(db);
  await sql`insert into ${sql.table(KEY_TABLE)} (id, company_id, key_hash, revoked_at) values
    (${KEY_ID}, ${LIST_COMPANY}, ${sha256(key)}, null),
    (${REVOKED_ID}, ${LIST_COMPANY}, ${sha256(revokedPeerKey(key))}, now())`.execute(db);
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header?.startsWith("Bearer ") ? header.slice(7) : null;
}

/** The peer stack's Fastify app on `db` and a Redis client of its own; `close` ends both. */
export async function peerFastify(db: Kysely<unknown>): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const app = Fastify({ logger: false });
  await app.register(rateLimit, {
    redis,
    nameSpace: "hireport-bench-peer:",
    max: 100_000_000,
    timeWindow: 60_000,
    keyGenerator: (request) => bearer(request) ?? request.ip,
  });

  const keys = new WeakMap<FastifyRequest, PeerKey>();
  const refuse = (reply: FastifyReply) =>
    reply.code(401).send({ error: { code: "unauthorized", message: "Unknown or revoked API key." } });
  app.addHook("preHandler", async (request, reply) => {
    const token = bearer(request);
    if (!token) return refuse(reply);
    const { rows } = await sql<PeerKey>`
      select id, company_id, revoked_at from ${sql.table(KEY_TABLE)} where key_hash = ${sha256(token)}`.execute(db);
    const key = rows[0];
    if (!key || key.revoked_at !== null) return refuse(reply);
    keys.set(request, key);
  });
  app.addHook("onResponse", async (request, reply) => {
    const key = keys.get(request);
    if (!key) return;
    await sql`insert into ${sql.table(USAGE_TABLE)} (key_id, method, path, status)
      values (${key.id}, ${request.method}, ${request.routeOptions.url ?? request.url}, ${reply.statusCode})`.execute(
      db,
    );
  });

  const companyOf = (request: FastifyRequest) => (keys.get(request) as PeerKey).company_id;
  app.get(`${BASE_PATH}/jobs`, async (request) =>
    bareJobs(db, request.query as Record<string, unknown>, companyOf(request)),
  );
  app.get(`${BASE_PATH}/applications`, async (request) =>
    bareApplications(db, request.query as Record<string, unknown>, companyOf(request)),
  );
  return {
    app,
    close: async () => {
      await app.close();
      redis.disconnect();
    },
  };
}

import type { ApiKeyRecord, Scope } from "@hireport/core";
import type { ApiKeyWithCompany, KeyStore, RateLimitStore } from "@hireport/core/storage";
import { runCompiled } from "../compiled-queries";
import type { StoreContext } from "../context";
import { type ApiKeyTable, COLUMNS, type CompanyTable, DATE_COLUMNS } from "../schema";
import { fromDb, readJson, readNumber } from "../values";
import { toCompany } from "./companies";
import { newestFirst } from "./newest-first";
import { findRecord, selectAll } from "./rows";

export function toKey(row: ApiKeyTable): ApiKeyRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    scopes: readJson<Scope[]>(row.scopes, []),
    hash: row.hash,
    prefix: row.prefix,
    suffix: row.suffix,
    createdAt: fromDb(row.created_at),
    expiresAt: fromDb(row.expires_at),
    revokedAt: fromDb(row.revoked_at),
    lastUsedAt: fromDb(row.last_used_at),
  };
}

/** The columns of a key row. */
function keyRow(ctx: StoreContext, record: ApiKeyRecord) {
  const row = {
    id: record.id,
    company_id: record.companyId,
    name: record.name,
    scopes: JSON.stringify(record.scopes),
    hash: record.hash,
    prefix: record.prefix,
    suffix: record.suffix,
    created_at: ctx.toDb(record.createdAt),
    expires_at: ctx.toDb(record.expiresAt),
    revoked_at: ctx.toDb(record.revokedAt),
    last_used_at: ctx.toDb(record.lastUsedAt),
  } satisfies Record<keyof ApiKeyTable, unknown>;
  return row;
}

/** Prefixes the company columns of a join so they do not clash with the key's. */
const COMPANY_PREFIX = "company__";

/** A key row joined with its company's columns, prefixed `company__`. */
export type KeyWithCompanyRow = ApiKeyTable & Record<`${typeof COMPANY_PREFIX}${keyof CompanyTable}`, string | Date>;

/** Keys (`k`) joined to their company (`c`): the rows of {@link toKeyWithCompany}. */
export function selectKeysWithCompany(ctx: StoreContext) {
  const companyColumns = ctx.strategy.selectColumns(
    "c",
    COLUMNS.company,
    new Set<string>(DATE_COLUMNS.company),
    (column) => `${COMPANY_PREFIX}${column}`,
  );
  return selectAll(ctx, "api_key", "k")
    .innerJoin(ctx.tableAs("company", "c"), "c.id", "k.company_id")
    .select(companyColumns);
}

/** The key and its company of a joined row (`findByHash`, and `keys.admit` on Postgres). */
export function toKeyWithCompany(row: KeyWithCompanyRow): ApiKeyWithCompany {
  return {
    key: toKey(row),
    company: toCompany({
      id: row.company__id as string,
      name: row.company__name as string,
      created_at: row.company__created_at,
    }),
  };
}

/**
 * API keys. `admit` is the dialect's (`DialectStrategy.keyAdmission`), built on this store's
 * `findByHash` and on `rateLimits`: one statement per batch of a key's requests on Postgres,
 * `admitInSteps` elsewhere.
 */
export function createKeyStore(ctx: StoreContext, rateLimits: RateLimitStore): KeyStore {
  const get = (companyId: string, id: string) => findRecord(ctx, "api_key", { id, company_id: companyId }, toKey);

  const store: KeyStore = {
    admit: (hash, windows, now) => admit(hash, windows, now),

    insert: (record, options) =>
      ctx.atomic(async (tx) => {
        // The company's key counter row is the lock: concurrent inserts for one company queue on it.
        await tx.strategy.nextSequence(tx, record.companyId, "key", 1);
        const count = tx.db
          .selectFrom(tx.tableAs("api_key", "k"))
          .select((eb) => eb.fn.countAll<number | string>().as("active"))
          .where("k.company_id", "=", record.companyId)
          .where("k.revoked_at", "is", null)
          .where((eb) => eb.or([eb("k.expires_at", "is", null), eb("k.expires_at", ">", tx.toDb(options.now))]));
        const { active } = await tx.strategy.currentRead(count).executeTakeFirstOrThrow();
        if (readNumber(active) >= options.maxActive) return "limit_reached" as const;
        await tx.db.insertInto(tx.table("api_key")).values(keyRow(tx, record)).execute();
        return "inserted" as const;
      }),

    async findByHash(hash) {
      const [row] = await runCompiled(ctx, "keys.findByHash", { hash }, (p) =>
        selectKeysWithCompany(ctx).where("k.hash", "=", p.hash).$castTo<KeyWithCompanyRow>(),
      );
      return row ? toKeyWithCompany(row) : null;
    },

    get,

    async list(companyId) {
      const select = selectAll(ctx, "api_key", "k").where("k.company_id", "=", companyId);
      const rows = await newestFirst(select, "k").$castTo<ApiKeyTable>().execute();
      return rows.map(toKey);
    },

    async revoke(companyId, id, at) {
      await ctx.db
        .updateTable(ctx.table("api_key"))
        .set({ revoked_at: ctx.toDb(at) })
        .where("id", "=", id)
        .where("company_id", "=", companyId)
        .where("revoked_at", "is", null)
        .execute();
      return get(companyId, id);
    },

    async touch(id, at) {
      await ctx.db
        .updateTable(ctx.table("api_key"))
        .set({ last_used_at: ctx.toDb(at) })
        .where("id", "=", id)
        .execute();
    },
  };
  const admit = ctx.strategy.keyAdmission(ctx, { keys: store, rateLimits });
  return store;
}

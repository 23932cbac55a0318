/** A key and its company as cached in Redis: JSON of every field, times as epoch milliseconds. */
import type { ApiKeyWithCompany } from "@hireport/core/storage";

/** What the fill script stores: the record's JSON and the fields the scripts read. */
export interface CachedFields {
  json: string;
  lastUsedAt: string;
  expiresAt: string;
  revokedAt: string;
}

function ms(date: Date | null): string {
  return date === null ? "" : String(date.getTime());
}

function date(value: string): Date | null {
  return value === "" ? null : new Date(Number(value));
}

export function toCached(found: ApiKeyWithCompany): CachedFields {
  const { key, company } = found;
  const json = JSON.stringify({
    key: {
      ...key,
      createdAt: key.createdAt.getTime(),
      expiresAt: key.expiresAt?.getTime() ?? null,
      revokedAt: key.revokedAt?.getTime() ?? null,
      lastUsedAt: key.lastUsedAt?.getTime() ?? null,
    },
    company: { ...company, createdAt: company.createdAt.getTime() },
  });
  return { json, lastUsedAt: ms(key.lastUsedAt), expiresAt: ms(key.expiresAt), revokedAt: ms(key.revokedAt) };
}

/** The record as stored in its JSON (last use and revocation as they were when it was read). */
export function parseCached(json: string): ApiKeyWithCompany {
  type Stored = {
    key: Omit<ApiKeyWithCompany["key"], "createdAt" | "expiresAt" | "revokedAt" | "lastUsedAt"> & {
      createdAt: number;
      expiresAt: number | null;
      revokedAt: number | null;
      lastUsedAt: number | null;
    };
    company: Omit<ApiKeyWithCompany["company"], "createdAt"> & { createdAt: number };
  };
  const stored = JSON.parse(json) as Stored;
  return {
    key: {
      ...stored.key,
      createdAt: new Date(stored.key.createdAt),
      expiresAt: stored.key.expiresAt === null ? null : new Date(stored.key.expiresAt),
      revokedAt: stored.key.revokedAt === null ? null : new Date(stored.key.revokedAt),
      lastUsedAt: stored.key.lastUsedAt === null ? null : new Date(stored.key.lastUsedAt),
    },
    company: { ...stored.company, createdAt: new Date(stored.company.createdAt) },
  };
}

/**
 * A parsed record with the last use and revocation the scripts report (the cached last use is
 * updated by `keys.touch`; a tombstone gives the revocation time). Shares `parsed`'s company.
 */
export function withReported(parsed: ApiKeyWithCompany, lastUsedAt: string, revokedAt: string): ApiKeyWithCompany {
  return {
    key: { ...parsed.key, revokedAt: date(revokedAt), lastUsedAt: date(lastUsedAt) },
    company: parsed.company,
  };
}

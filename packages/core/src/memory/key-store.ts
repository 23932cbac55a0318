import { isKeyUsable } from "../access/key-admission";
import type { ApiKeyWithCompany } from "../model/domain";
import type { KeyStore } from "../storage";
import type { StateAccess } from "./access";
import { copy, toStored } from "./copy";
import { createdList } from "./keyset";
import { countRequest } from "./rate-limit-store";
import { ownRow } from "./rows";
import type { MemoryState } from "./state";

/** The key with this hash and its company, copied out; null if none. */
function lookUp(state: MemoryState, hash: string): ApiKeyWithCompany | null {
  for (const key of state.read("keys").values()) {
    if (key.hash !== hash) continue;
    const company = state.read("companies").get(key.companyId);
    return company ? { key: copy(key), company: copy(company) } : null;
  }
  return null;
}

export function createKeyStore(access: StateAccess): KeyStore {
  return {
    insert: (record, options) =>
      access.write((state) => {
        const keys = state.write("keys");
        if (keys.has(record.id)) throw new Error(`The memory storage already has a key with id ${record.id}.`);
        let active = 0;
        for (const key of keys.values()) {
          if (key.companyId === record.companyId && isKeyUsable(key, options.now)) active += 1;
        }
        if (active >= options.maxActive) return "limit_reached";
        keys.set(record.id, toStored(record));
        return "inserted";
      }),

    findByHash: (hash) => access.read((state) => lookUp(state, hash)),

    // One state operation: the lookup and the count can never be interleaved with a revocation.
    admit: (hash, windows, now) =>
      access.write((state) => {
        const found = lookUp(state, hash);
        if (!found) return null;
        if (!isKeyUsable(found.key, now)) return { found, rate: null };
        const buckets = windows.map((window) => ({ ...window, key: `${found.key.id}${window.suffix}` }));
        return { found, rate: countRequest(state, buckets, now) };
      }),

    get: (companyId, id) => access.read((state) => copy(ownRow(state.read("keys"), companyId, id))),

    list: (companyId) =>
      access.read((state) => createdList(state.read("keys").values(), (key) => key.companyId === companyId)),

    revoke: (companyId, id, at) =>
      access.write((state) => {
        const key = ownRow(state.read("keys"), companyId, id);
        if (!key) return null;
        if (key.revokedAt !== null) return copy(key);
        const revoked = toStored({ ...key, revokedAt: at });
        state.write("keys").set(id, revoked);
        return copy(revoked);
      }),

    touch: (id, at) =>
      access.write((state) => {
        const keys = state.write("keys");
        const key = keys.get(id);
        if (key) keys.set(id, toStored({ ...key, lastUsedAt: at }));
      }),
  };
}

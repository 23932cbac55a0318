/**
 * The Redis keys, named in one place. Every key of one API key shares the hash tag `{<key id>}`, so
 * a Redis Cluster keeps them in one slot and one script can read and write them together:
 *
 * - `<prefix>{<key id>}:rec`: the cached key record (a hash);
 * - `<prefix>{<key id>}:revoked`: the revocation tombstone (the revocation time, in ms);
 * - `<prefix>{<tag>}:rl<window>`: a rate-limit counter (a hash: count `c`, window end `r`), for the
 *   bucket `<tag><window>`, where `<window>` is the bucket's last two `:` segments (`:m:29012345`).
 *   A key's buckets are `key.id + window.suffix`, so their tag is the key id;
 * - `<prefix>h:<hash>`: the key id of a key hash (its own slot).
 */
import { createHash } from "node:crypto";

/** A bucket's hash tag and the rest of its name: `key_1:m:5` is `key_1` and `:m:5`. */
export function splitBucket(bucket: string): { tag: string; window: string } {
  const last = bucket.lastIndexOf(":");
  const second = last > 0 ? bucket.lastIndexOf(":", last - 1) : -1;
  if (second <= 0) return { tag: bucket, window: "" };
  return { tag: bucket.slice(0, second), window: bucket.slice(second) };
}

/** A tag as it can stand between braces: itself, or a digest when it is empty or holds a brace. */
function safeTag(tag: string): string {
  if (tag.length > 0 && !/[{}]/.test(tag)) return tag;
  return `#${createHash("sha256").update(tag).digest("hex").slice(0, 32)}`;
}

export class RedisKeys {
  constructor(private readonly prefix: string) {}

  record(keyId: string): string {
    return `${this.prefix}{${safeTag(keyId)}}:rec`;
  }

  tombstone(keyId: string): string {
    return `${this.prefix}{${safeTag(keyId)}}:revoked`;
  }

  /** The counter of a bucket. */
  counter(bucket: string): string {
    const { tag, window } = splitBucket(bucket);
    return `${this.prefix}{${safeTag(tag)}}:rl${window}`;
  }

  /** The hash tag a bucket's counter is stored under: buckets of one script call must share it. */
  tagOf(bucket: string): string {
    return safeTag(splitBucket(bucket).tag);
  }

  index(hash: string): string {
    return `${this.prefix}h:${hash}`;
  }

  /** A SCAN pattern matching every counter. */
  counterPattern(): string {
    return `${this.prefix.replace(/[*?[\]\\]/g, "\\$&")}{*}:rl*`;
  }
}

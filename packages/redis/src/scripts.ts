/**
 * The Lua scripts, each one atomic on Redis and touching the keys of one hash tag only (one slot of
 * a Cluster). They are added to the host's client with `defineCommand`, which sends EVALSHA and
 * falls back to EVAL when the server does not know the script yet (after a restart or failover).
 */
import type { Cluster, Redis } from "ioredis";

/**
 * Counts up to `requests` requests, in arrival order, in the counters `KEYS[first..]` with the
 * rules of `rateLimits.consume`: each request all or none, counted when every counter is below its
 * limit, so the batch takes as many as every counter has room for and the rest count nowhere.
 * ARGV: now (ms), margin (ms), then a limit and a window end (ms) per counter. A counter whose
 * window has ended counts as absent. Answers `{taken, refused index, counts…}`: the counts after
 * the batch (the i-th request taken, from 0, had `counts - taken + i + 1`), and the index of the
 * first full counter when a request was refused (-1 when all were taken).
 */
const COUNT = `
local function count(first, requests)
  local now = tonumber(ARGV[1])
  local margin = tonumber(ARGV[2])
  local n = #KEYS - first + 1
  local current = {}
  local taken = requests
  for i = 1, n do
    local stored = redis.call('HMGET', KEYS[first + i - 1], 'c', 'r')
    local c = 0
    if stored[1] and stored[2] and tonumber(stored[2]) > now then c = tonumber(stored[1]) end
    current[i] = c
    local room = tonumber(ARGV[1 + 2 * i]) - c
    if room < taken then taken = room end
  end
  if taken < 0 then taken = 0 end
  local refused = -1
  for i = 1, n do
    if taken > 0 then
      local key = KEYS[first + i - 1]
      if current[i] == 0 then
        local resetAt = tonumber(ARGV[2 + 2 * i])
        local ttl = resetAt - now
        if ttl < 0 then ttl = 0 end
        redis.call('HSET', key, 'c', taken, 'r', ARGV[2 + 2 * i])
        redis.call('PEXPIRE', key, string.format('%.0f', ttl + margin))
        current[i] = taken
      else
        current[i] = redis.call('HINCRBY', key, 'c', taken)
      end
    end
    if refused == -1 and taken < requests and current[i] >= tonumber(ARGV[1 + 2 * i]) then refused = i - 1 end
  end
  return {taken, refused, unpack(current)}
end
`;

/**
 * Key admission of a batch of requests of one key. KEYS: the record, the tombstone, then the key's
 * counters. ARGV as for COUNT, then `trustFrom` (ms): a record filled before it counts as not cached
 * (0: trust every record); the number of requests; the record version the caller has parsed ("" for
 * none). Answers `{"miss"}` (no record cached, or too old), `{"revoked", at}` (tombstone, no
 * record), or `{"found", version, json, used, revokedAt}` (nothing counted: revoked or expired), or
 * `{"counted", version, json, used, taken, refused index, counts…}`; `json` is "" when `version` is
 * the caller's.
 */
const ADMIT = `${COUNT}
local now = tonumber(ARGV[1])
local tombstone = redis.call('GET', KEYS[2])
local rec = redis.call('HMGET', KEYS[1], 'json', 'used', 'exp', 'rev', 'filled', 'ver')
if not rec[1] then
  if tombstone then return {'revoked', tombstone} end
  return {'miss'}
end
local trust = tonumber(ARGV[#ARGV - 2])
if trust > 0 and (not rec[5] or tonumber(rec[5]) < trust) then return {'miss'} end
local version = rec[6] or ''
local json = rec[1]
if version ~= '' and version == ARGV[#ARGV] then json = '' end
local used = rec[2] or ''
local revoked = rec[4] or ''
if revoked == '' and tombstone then revoked = tombstone end
if revoked ~= '' then return {'found', version, json, used, revoked} end
if rec[3] and rec[3] ~= '' and tonumber(rec[3]) <= now then return {'found', version, json, used, ''} end
local counted = count(3, tonumber(ARGV[#ARGV - 1]))
return {'counted', version, json, used, unpack(counted)}
`;

/**
 * rateLimits.consume on counters of one hash tag: one request. KEYS: the counters; ARGV as for
 * COUNT. Answers `{1, -1, counts…}` when counted, `{0, refused index, counts as they are…}` when not.
 */
const CONSUME = `${COUNT}
return count(1, 1)
`;

/**
 * Fills the cache with a record read from the database, unless a tombstone says the key was revoked
 * and the record does not know it yet (read before the revocation committed). KEYS: the record, the
 * tombstone. ARGV: json, lastUsedAt, expiresAt, revokedAt (ms or ""), TTL (s), the time of the
 * database read (ms). Answers 1 or 0. The record's version is the digest of its JSON: a process
 * keeps the record it parsed while the admissions it makes answer that version.
 */
const FILL = `
if ARGV[4] == '' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local version = redis.sha1hex(ARGV[1])
redis.call('HSET', KEYS[1], 'json', ARGV[1], 'used', ARGV[2], 'exp', ARGV[3], 'rev', ARGV[4], 'filled', ARGV[6], 'ver', version)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
`;

/**
 * Writes the tombstone of a revoked key (keeping the first revocation time) and drops its cached
 * record. KEYS: the record, the tombstone. ARGV: revokedAt (ms), TTL (s).
 */
const REVOKE = `
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2], 'NX')
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[1])
return 1
`;

/** Records a key's last use in its cached record, if cached and later. KEYS: the record. ARGV: at (ms). */
const TOUCH = `
local used = redis.call('HGET', KEYS[1], 'used')
if used == false then
  if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
  used = ''
end
if used == '' or tonumber(used) < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'used', ARGV[1]) end
return 1
`;

/** Deletes a counter whose window ended at `now`. KEYS: the counter. ARGV: now (ms). */
const PURGE = `
local r = redis.call('HGET', KEYS[1], 'r')
if r and tonumber(r) <= tonumber(ARGV[1]) then return redis.call('DEL', KEYS[1]) end
return 0
`;

const SCRIPTS = {
  hireportAdmitV2: ADMIT,
  hireportConsumeV1: CONSUME,
  hireportFillV2: FILL,
  hireportRevokeV1: REVOKE,
  hireportTouchV1: TOUCH,
  hireportPurgeV1: PURGE,
} as const;

type ScriptName = keyof typeof SCRIPTS;

/** A reply of a script: strings and numbers, nested once. */
export type ScriptReply = (string | number)[];

/** Calls one script: the number of keys, the keys, then the arguments. */
export type ScriptCall = (numberOfKeys: number, ...args: (string | number)[]) => Promise<unknown>;

export type Scripts = Record<ScriptName, ScriptCall>;

/**
 * Adds the scripts to the client, once (another decorator over the same client finds them), and
 * returns them bound to it.
 */
export function defineScripts(redis: Redis | Cluster): Scripts {
  const client = redis as unknown as Record<string, unknown> & { defineCommand: Redis["defineCommand"] };
  const scripts = {} as Scripts;
  for (const [name, lua] of Object.entries(SCRIPTS) as [ScriptName, string][]) {
    if (typeof client[name] !== "function") client.defineCommand(name, { lua });
    const command = client[name] as (...args: (string | number)[]) => Promise<unknown>;
    scripts[name] = (numberOfKeys, ...args) => command.call(redis, numberOfKeys, ...args);
  }
  return scripts;
}

/**
 * The cached records this process has parsed, by key id: the admission script answers a record's
 * version (the digest of its JSON, set by the fill) and sends the JSON only when the caller has not
 * parsed that version, so a busy key's record is parsed once per fill instead of once per request.
 * A fill with other content is another version, and a revocation or last use comes with every
 * answer, so a parsed record is never reused across a change.
 */
import type { ApiKeyWithCompany } from "@hireport/core/storage";
import { parseCached, withReported } from "./cached-record";

/** Parsed records remembered by one process (bounded; the oldest is dropped first). */
const PARSED_RECORDS = 10_000;

/** One parsed version of a key's record, and the last record answered from it. */
export interface ParsedRecord {
  readonly version: string;
  readonly parsed: ApiKeyWithCompany;
  last: { used: string; revokedAt: string; found: ApiKeyWithCompany } | null;
}

export class ParsedRecords {
  private readonly records = new Map<string, ParsedRecord>();

  /** The version of the key's record this process has parsed, if any: send it to the script. */
  known(keyId: string): ParsedRecord | undefined {
    return this.records.get(keyId);
  }

  /**
   * The key's record as the script answered it. `json` is "" when `version` is that of `known`
   * (what {@link known} gave when the call was sent), whose parsed record is then reused. The same
   * object is answered while the version, the last use and the revocation stay the same: callers
   * must not change it.
   */
  record(
    keyId: string,
    known: ParsedRecord | undefined,
    version: string,
    json: string,
    used: string,
    revokedAt: string,
  ): ApiKeyWithCompany {
    let entry: ParsedRecord;
    if (json === "") {
      if (!known || known.version !== version) {
        throw new Error(
          `hireport: Redis answered the record ${keyId} without its JSON, for a version not parsed here.`,
        );
      }
      entry = known;
    } else {
      entry = { version, parsed: parseCached(json), last: null };
      // A record without a version is parsed again at every answer.
      if (version !== "") this.remember(keyId, entry);
    }
    const last = entry.last;
    if (last && last.used === used && last.revokedAt === revokedAt) return last.found;
    const found = withReported(entry.parsed, used, revokedAt);
    entry.last = { used, revokedAt, found };
    return found;
  }

  private remember(keyId: string, entry: ParsedRecord): void {
    if (this.records.size >= PARSED_RECORDS && !this.records.has(keyId)) {
      this.records.delete(this.records.keys().next().value as string);
    }
    this.records.set(keyId, entry);
  }
}

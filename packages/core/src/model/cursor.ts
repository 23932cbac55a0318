import { HireportError } from "../base/errors";
import {
  createHmacSigner,
  fromBase64Url,
  type HmacSigner,
  timingSafeEqual,
  toBase64Url,
  utf8ToBase64Url,
} from "./crypto";

/** A keyset position: rows strictly after it in the list's order (newest first). */
export interface KeysetPosition {
  /** The sort time of the last row of the previous page (`createdAt` for jobs, `appliedAt` for applications). */
  at: Date;
  /** The id of that row: ties on time are broken by id, descending. */
  id: string;
}

const VERSION = 1;
const MAC_BYTES = 16;

interface CursorBody {
  v: number;
  /** The list the cursor belongs to: its name, company and filters. */
  s: string;
  t: number;
  i: string;
}

function invalidCursor(): HireportError {
  return new HireportError(
    "bad_request",
    "The cursor is not valid for this list. Pass the next_cursor of the previous page unchanged, with the same filters.",
  );
}

/**
 * Opaque list cursors, the one codec of every list hireport pages (the API's, the host methods',
 * the webhook delivery log's). A cursor names the list it came from (endpoint, company, filters),
 * so one from another list or company is refused with 400 `bad_request`. With a secret, cursors
 * are signed (HMAC-SHA256, 128 bits) and a tampered one is refused too; without one (lists whose
 * reads are scoped to the caller's company anyway), they are only encoded.
 */
const utf8Text = new TextDecoder();

export class CursorCodec {
  readonly #signer: HmacSigner | null;

  constructor(secret: string | null) {
    this.#signer = secret === null ? null : createHmacSigner(`hireport-cursor:${secret}`);
  }

  async encode(scope: string, position: KeysetPosition): Promise<string> {
    const body: CursorBody = { v: VERSION, s: scope, t: position.at.getTime(), i: position.id };
    const text = utf8ToBase64Url(JSON.stringify(body));
    if (!this.#signer) return text;
    const mac = (await this.#signer.sign(text)).subarray(0, MAC_BYTES);
    return `${text}.${toBase64Url(mac)}`;
  }

  async decode(scope: string, cursor: string): Promise<KeysetPosition> {
    const [text, macText, ...rest] = cursor.split(".");
    if (!text || rest.length > 0) throw invalidCursor();
    if (this.#signer) {
      const mac = macText === undefined ? null : fromBase64Url(macText);
      // Only the canonical text of the MAC: base64's last character carries unused bits, and a
      // cursor changed in them would decode to the same bytes.
      if (!mac || toBase64Url(mac) !== macText) throw invalidCursor();
      const expected = (await this.#signer.sign(text)).slice(0, MAC_BYTES);
      if (!timingSafeEqual(mac, expected)) throw invalidCursor();
    } else if (macText !== undefined) {
      throw invalidCursor();
    }
    const bytes = fromBase64Url(text);
    let body: CursorBody;
    try {
      body = JSON.parse(utf8Text.decode(bytes ?? new Uint8Array())) as CursorBody;
    } catch {
      throw invalidCursor();
    }
    if (
      body === null ||
      typeof body !== "object" ||
      body.v !== VERSION ||
      body.s !== scope ||
      typeof body.t !== "number" ||
      !Number.isFinite(body.t) ||
      typeof body.i !== "string"
    ) {
      throw invalidCursor();
    }
    return { at: new Date(body.t), id: body.i };
  }
}

/** The scope string of a list: its name, the company and the filters, in a fixed order. */
export function cursorScope(list: string, companyId: string, filters: Record<string, string | undefined>): string {
  const parts = Object.keys(filters)
    .sort()
    .map((name) => `${name}=${filters[name] ?? ""}`);
  return [list, companyId, ...parts].join("|");
}

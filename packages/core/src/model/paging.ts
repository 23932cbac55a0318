import { HireportError } from "../base/errors";
import type { CursorCodec, KeysetPosition } from "./cursor";

/** Page sizes of every list, over HTTP and in host code (docs/api-reference.md, Paging and sync). */
export const PAGE_SIZE = Object.freeze({ min: 1, max: 100, default: 25 });

/** One page of a list: the shape every host-side list method returns (camelCase of a page in docs/api-reference.md, Paging and sync). */
export interface Page<T> {
  data: T[];
  /** True when more rows follow: pass `nextCursor` as `cursor` to get them. */
  hasMore: boolean;
  /** The cursor of the next page, or null on the last page. */
  nextCursor: string | null;
}

/** Where a list continues: the decoded cursor of the request (if any) and its page size. */
export interface PageRequest {
  scope: string;
  limit: number;
  after: KeysetPosition | undefined;
}

/**
 * Starts a page of a keyset list: checks the page size (a host caller may send anything) and
 * decodes the cursor against the list's scope.
 * @throws HireportError `bad_request` for a cursor of another list, `invalid` for a page size out of range.
 */
export async function pageRequest(
  cursors: CursorCodec,
  scope: string,
  options: { limit?: number | undefined; cursor?: string | undefined },
): Promise<PageRequest> {
  const limit = options.limit ?? PAGE_SIZE.default;
  if (!Number.isInteger(limit) || limit < PAGE_SIZE.min || limit > PAGE_SIZE.max) {
    throw new HireportError(
      "invalid",
      `The page size must be a whole number from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}.`,
      {
        fields: [{ field: "limit", message: `Must be a whole number from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}.` }],
      },
    );
  }
  const after = options.cursor ? await cursors.decode(scope, options.cursor) : undefined;
  return { scope, limit, after };
}

/**
 * Ends a page from the rows of a query that asked for `limit + 1` (the extra row tells whether
 * more follow): the page's rows and the cursor after its last one.
 */
export async function toPage<T extends { id: string }>(
  cursors: CursorCodec,
  request: PageRequest,
  rows: T[],
  sortTime: (row: T) => Date,
): Promise<Page<T>> {
  const hasMore = rows.length > request.limit;
  const data = hasMore ? rows.slice(0, request.limit) : rows;
  const last = data[data.length - 1];
  const nextCursor = hasMore && last ? await cursors.encode(request.scope, { at: sortTime(last), id: last.id }) : null;
  return { data, hasMore, nextCursor };
}

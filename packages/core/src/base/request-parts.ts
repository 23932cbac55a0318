import type { HeaderBag, QueryBag } from "./http-types";

/** One header value, case-insensitive; the first when the header was sent more than once. */
export function getHeader(headers: HeaderBag | Headers, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") {
    return (headers as Headers).get(name) ?? undefined;
  }
  const bag = headers as HeaderBag;
  const lower = name.toLowerCase();
  let value = bag[lower];
  if (value === undefined) {
    for (const key of Object.keys(bag)) {
      if (key.toLowerCase() === lower) {
        value = bag[key];
        break;
      }
    }
  }
  return Array.isArray(value) ? value[0] : value;
}

/** Query parameters as a plain object; repeated names become arrays. */
export function toQueryBag(query: QueryBag | URLSearchParams | undefined): QueryBag {
  if (query === undefined) return {};
  if (query instanceof URLSearchParams) {
    // A Map, then fromEntries (own properties): `?__proto__=1` stays a parameter, reported as unknown,
    // instead of an assignment to the bag's prototype that would drop it silently.
    const bag = new Map<string, string | string[]>();
    for (const [name, value] of query) {
      const existing = bag.get(name);
      if (existing === undefined) bag.set(name, value);
      else bag.set(name, Array.isArray(existing) ? [...existing, value] : [existing, value]);
    }
    return Object.fromEntries(bag);
  }
  return query;
}

/** The query as `URLSearchParams`, whatever the adapter passed; repeated names stay repeated. */
export function toSearchParams(query: QueryBag | URLSearchParams | undefined): URLSearchParams {
  if (query instanceof URLSearchParams) return query;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, item);
  }
  return params;
}

/** The media type of the body (`Content-Type` without its parameters), lower case; "" when none is sent. */
export function mediaTypeOf(headers: HeaderBag | Headers): string {
  return (getHeader(headers, "content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

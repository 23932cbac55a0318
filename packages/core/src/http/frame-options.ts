/**
 * The `X-Frame-Options` header that says what a CSP `frame-ancestors` list says, for browsers that
 * predate `frame-ancestors`: SAMEORIGIN for `'self'` alone, DENY for `'none'`; none for a list of
 * origins, which the old header cannot express.
 */
export function frameOptionsHeader(frameAncestors: readonly string[]): Record<string, string> {
  const ancestors = frameAncestors.join(" ");
  if (ancestors === "'self'") return { "x-frame-options": "SAMEORIGIN" };
  if (ancestors === "'none'") return { "x-frame-options": "DENY" };
  return {};
}

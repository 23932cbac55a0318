/**
 * A number as the API's messages write it, in en-US digit groups ("2,048", "1,048,576"). Integers
 * are grouped by hand: the first `Intl` formatter of a process loads ICU's locale data (about 50 ms
 * here), which every cold start would otherwise pay at import, where the schemas' messages are
 * written. Other numbers (fractions, beyond 1e21) go to `Intl.NumberFormat`, made at first use.
 */
let intl: Intl.NumberFormat | undefined;

export function formatNumber(value: number | bigint): string {
  const integer = typeof value === "bigint" || (Number.isSafeInteger(value) && !Object.is(value, -0));
  if (!integer) {
    intl ??= new Intl.NumberFormat("en-US");
    return intl.format(value);
  }
  const text = String(value);
  const sign = text.startsWith("-") ? "-" : "";
  return sign + text.slice(sign.length).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

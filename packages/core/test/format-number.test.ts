/** `formatNumber` writes what `Intl.NumberFormat("en-US")` writes, without loading ICU for integers. */
import { describe, expect, it } from "vitest";
import { formatNumber } from "../src/base/format-number";

const intl = new Intl.NumberFormat("en-US");

describe("formatNumber", () => {
  it("groups integers as en-US does, bigint and negative ones too", () => {
    const values = [0, 7, 99, 999, 1000, 2048, 10_000, 50_000, 999_999, 1_048_576, -1, -1234, -1_000_000];
    const more = [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 12_345_678_901_234];
    for (const value of [...values, ...more]) expect(formatNumber(value), String(value)).toBe(intl.format(value));
    for (const value of [0n, 1000n, -123456789n, 2n ** 70n]) expect(formatNumber(value)).toBe(intl.format(value));
  });

  it("hands fractions, -0 and numbers beyond the safe integers to Intl", () => {
    for (const value of [1.5, -0.25, 1.23456, -0, 1e21, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatNumber(value), String(value)).toBe(intl.format(value));
    }
  });
});

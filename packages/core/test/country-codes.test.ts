import { describe, expect, it } from "vitest";
import { COUNTRY_CODES, isCountryCode } from "../src/fields/country-codes";

describe("the ISO 3166-1 alpha-2 codes", () => {
  it("lists the 249 assigned codes once each, in order, every one a region Intl can name", () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect([...COUNTRY_CODES].sort()).toEqual([...COUNTRY_CODES]);
    const names = new Intl.DisplayNames("en", { type: "region", fallback: "code" });
    for (const code of COUNTRY_CODES) expect(names.of(code), code).not.toBe(code);
  });

  it("leaves out what Intl names but the standard does not assign to a country", () => {
    // Exceptionally reserved (UK, EU, UN, EZ…), transitionally reserved (AN, YU…), user-assigned (XK, ZZ…).
    for (const code of ["UK", "EU", "UN", "EZ", "AC", "TA", "IC", "AN", "YU", "SU", "XK", "ZZ", "QO"]) {
      expect(isCountryCode(code), code).toBe(false);
    }
    for (const code of ["gb", "GBR", "", " GB"]) expect(isCountryCode(code), code).toBe(false);
    for (const code of ["GB", "DE", "US", "SS", "BQ", "CW", "SX", "AX"]) expect(isCountryCode(code), code).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { idFloor, newId } from "../src/model/ids";

const ID = /^req_[0-9a-hjkmnp-tv-z]{26}$/;

describe("newId", () => {
  it("is the prefix, 10 characters of time and 16 of randomness, in Crockford base32", () => {
    const id = newId("req", new Date("2026-11-23T12:00:00.000Z"));
    expect(id).toMatch(ID);
    expect(newId("req", new Date("2026-11-23T12:00:00.000Z")).slice(0, 14)).toBe(id.slice(0, 14));
  });

  it("sorts by creation time", () => {
    const ids = [0, 1, 1000, 86_400_000].map((ms) => newId("app", new Date(Date.UTC(2026, 0, 1) + ms)));
    expect([...ids].sort()).toEqual(ids);
  });

  it("idFloor splits ids at a time: those made before it sort below, those made at or after it do not", () => {
    const at = new Date("2026-11-23T12:00:00.000Z");
    const floor = idFloor("fil", at);
    expect(floor).toBe(newId("fil", at).slice(0, 14));
    for (const ms of [-86_400_000, -1]) expect(newId("fil", new Date(at.getTime() + ms)) < floor).toBe(true);
    for (const ms of [0, 1, 86_400_000]) expect(newId("fil", new Date(at.getTime() + ms)) < floor).toBe(false);
  });

  it("never repeats, and every base32 character turns up in every random position", () => {
    const ids = Array.from({ length: 20_000 }, () => newId("req"));
    expect(new Set(ids).size).toBe(ids.length);
    for (let position = 14; position < 30; position++) {
      const seen = new Set(ids.map((id) => id[position]));
      expect(seen.size, `position ${position}`).toBe(32);
    }
  });

  it("gives each id the time part of its own instant and prefix, also when instants and prefixes alternate", () => {
    const instants = [0, 5, 5, 4, 1_000_000, 5, 5].map((ms) => new Date(Date.UTC(2026, 0, 1) + ms));
    for (const at of instants) {
      for (const prefix of ["req", "use", "req"]) expect(newId(prefix, at).slice(0, 14)).toBe(idFloor(prefix, at));
    }
  });

  it("draws new randomness past the end of a block of random bytes", () => {
    // 4,096 bytes make 256 ids: 1,000 ids cross several blocks.
    const ids = Array.from({ length: 1000 }, () => newId("req", new Date(0)).slice(14));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

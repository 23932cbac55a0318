/**
 * `api.throttle`'s day window: the calendar day of UTC by default (keyed as every version keyed it),
 * or of the IANA zone in `dayTimeZone`: it opens at midnight there, not at UTC's, on the 23- and
 * 25-hour days of daylight saving and where the clock jumps at midnight, and `retryAfterSeconds`
 * counts to that midnight. A zone the runtime does not know is refused before anything is counted.
 */
import { createPublicApi, type PublicApi } from "@hireport/core";
import type { ThrottleLimits } from "@hireport/core/extend";
import { memoryStorage } from "@hireport/core/memory";
import { describe, expect, it, vi } from "vitest";

const SECRET = "throttle-day-secret-0123456789-abcdefghij";
const NAME = "test:quota";
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const HOUR_S = 3600;

function setup(start: string) {
  let now = new Date(start).getTime();
  const clock = { now: () => new Date(now), set: (iso: string) => (now = new Date(iso).getTime()) };
  const storage = memoryStorage();
  const consume = vi.spyOn(storage.rateLimits, "consume");
  const api: PublicApi = createPublicApi({
    storage,
    publicBaseUrl: "https://jobs.example.com",
    fileTokenSecret: SECRET,
    clock,
    logger: { warn: () => undefined, error: () => undefined },
  });
  /** The buckets of the last hit counted, as the storage was given them. */
  const lastBuckets = () => consume.mock.lastCall?.[0] ?? [];
  return { api, clock, consume, lastBuckets };
}

/** Uses up a day of `limits.perDay` hits at the clock's time. */
async function fillDay(api: PublicApi, limits: ThrottleLimits): Promise<void> {
  for (let n = 0; n < limits.perDay; n++) expect((await api.throttle(NAME, limits)).allowed).toBe(true);
}

describe("the throttle's day window", () => {
  it("counts UTC days by default, under the keys every version used, and UTC named shares them", async () => {
    const { api, clock, lastBuckets } = setup("2026-06-10T23:59:30.000Z");
    const limits = { perMinute: 100, perDay: 2 };
    expect((await api.throttle(NAME, limits)).allowed).toBe(true);
    const minute = Math.floor(Date.parse("2026-06-10T23:59:00.000Z") / MINUTE_MS);
    const day = Date.UTC(2026, 5, 10) / DAY_MS;
    expect(lastBuckets()).toEqual([
      { key: `t:${NAME}:m:${minute}`, limit: 100, resetAt: new Date("2026-06-11T00:00:00.000Z") },
      { key: `t:${NAME}:d:${day}`, limit: 2, resetAt: new Date("2026-06-11T00:00:00.000Z") },
    ]);
    // "UTC" given is the default: the same count.
    expect((await api.throttle(NAME, { ...limits, dayTimeZone: "UTC" })).allowed).toBe(true);
    expect(lastBuckets()[1]?.key).toBe(`t:${NAME}:d:${day}`);
    expect(await api.throttle(NAME, limits)).toEqual({ allowed: false, refusedBy: "day", retryAfterSeconds: 30 });
    clock.set("2026-06-11T00:00:00.000Z");
    expect((await api.throttle(NAME, limits)).allowed).toBe(true);
  });

  it("in a zone, opens the day at midnight there, not at UTC midnight, and counts the wait to it", async () => {
    // 16:59:30 in Los Angeles (PDT, UTC-7) on June 10th.
    const { api, clock, lastBuckets } = setup("2026-06-10T23:59:30.000Z");
    const limits = { perMinute: 100, perDay: 2, dayTimeZone: "America/Los_Angeles" };
    await fillDay(api, limits);
    expect(lastBuckets()[1]).toEqual({
      key: `t:${NAME}:d@America/Los_Angeles:2026-06-10`,
      limit: 2,
      resetAt: new Date("2026-06-11T07:00:00.000Z"),
    });
    expect(await api.throttle(NAME, limits)).toEqual({
      allowed: false,
      refusedBy: "day",
      retryAfterSeconds: 7 * HOUR_S + 30,
    });
    // UTC's midnight passes: still June 10th in Los Angeles.
    clock.set("2026-06-11T00:00:30.000Z");
    expect(await api.throttle(NAME, limits)).toMatchObject({ allowed: false, refusedBy: "day" });
    // Right before midnight there: a second, rounded up.
    clock.set("2026-06-11T06:59:59.250Z");
    expect(await api.throttle(NAME, limits)).toEqual({ allowed: false, refusedBy: "day", retryAfterSeconds: 1 });
    clock.set("2026-06-11T06:58:30.000Z");
    expect(await api.throttle(NAME, limits)).toMatchObject({ retryAfterSeconds: 90 });
    clock.set("2026-06-11T07:00:00.000Z");
    expect((await api.throttle(NAME, limits)).allowed).toBe(true);
    expect(lastBuckets()[1]?.key).toBe(`t:${NAME}:d@America/Los_Angeles:2026-06-11`);
  });

  it("keeps the counts of different zones apart under one name", async () => {
    const { api } = setup("2026-06-10T12:00:00.000Z");
    const day = { perMinute: 100, perDay: 1 };
    expect((await api.throttle(NAME, { ...day, dayTimeZone: "America/Los_Angeles" })).allowed).toBe(true);
    expect((await api.throttle(NAME, { ...day, dayTimeZone: "Europe/London" })).allowed).toBe(true);
    expect((await api.throttle(NAME, day)).allowed).toBe(true);
    expect(await api.throttle(NAME, { ...day, dayTimeZone: "America/Los_Angeles" })).toMatchObject({
      allowed: false,
      refusedBy: "day",
    });
  });

  it("gives a day of 23 hours when the clock goes forward (Los Angeles, March 8th 2026)", async () => {
    // Midnight, PST (UTC-8); at 02:00 the clock goes to 03:00 PDT (UTC-7).
    const { api, clock } = setup("2026-03-08T08:00:00.000Z");
    const limits = { perMinute: 100, perDay: 1, dayTimeZone: "America/Los_Angeles" };
    await fillDay(api, limits);
    expect(await api.throttle(NAME, limits)).toMatchObject({ refusedBy: "day", retryAfterSeconds: 23 * HOUR_S });
    // 01:30 PST, before the change.
    clock.set("2026-03-08T09:30:00.000Z");
    expect(await api.throttle(NAME, limits)).toMatchObject({ retryAfterSeconds: 21 * HOUR_S + 30 * 60 });
    clock.set("2026-03-09T06:59:59.000Z");
    expect(await api.throttle(NAME, limits)).toMatchObject({ refusedBy: "day", retryAfterSeconds: 1 });
    clock.set("2026-03-09T07:00:00.000Z");
    expect((await api.throttle(NAME, limits)).allowed).toBe(true);
  });

  it("gives a day of 25 hours when the clock goes back (Los Angeles, November 1st 2026)", async () => {
    // Midnight, PDT (UTC-7); at 02:00 the clock goes back to 01:00 PST (UTC-8).
    const { api, clock } = setup("2026-11-01T07:00:00.000Z");
    const limits = { perMinute: 100, perDay: 1, dayTimeZone: "America/Los_Angeles" };
    await fillDay(api, limits);
    expect(await api.throttle(NAME, limits)).toMatchObject({ refusedBy: "day", retryAfterSeconds: 25 * HOUR_S });
    // 24 hours on, it is still November 1st there (23:00 PST).
    clock.set("2026-11-02T07:00:00.000Z");
    expect(await api.throttle(NAME, limits)).toMatchObject({ refusedBy: "day", retryAfterSeconds: HOUR_S });
    clock.set("2026-11-02T08:00:00.000Z");
    expect((await api.throttle(NAME, limits)).allowed).toBe(true);
  });

  it("starts the day at 01:00 where the clock jumps at midnight (Santiago, September 6th 2026)", async () => {
    // 20:00 on the 5th (UTC-4); at midnight the clock goes to 01:00 on the 6th (UTC-3).
    const { api, clock, lastBuckets } = setup("2026-09-06T00:00:00.000Z");
    const limits = { perMinute: 100, perDay: 1, dayTimeZone: "America/Santiago" };
    await fillDay(api, limits);
    expect(lastBuckets()[1]?.resetAt).toEqual(new Date("2026-09-06T04:00:00.000Z"));
    expect(await api.throttle(NAME, limits)).toMatchObject({ refusedBy: "day", retryAfterSeconds: 4 * HOUR_S });
    clock.set("2026-09-06T03:59:59.000Z");
    expect(await api.throttle(NAME, limits)).toMatchObject({ refusedBy: "day", retryAfterSeconds: 1 });
    clock.set("2026-09-06T04:00:00.000Z");
    expect((await api.throttle(NAME, limits)).allowed).toBe(true);
    expect(lastBuckets()[1]?.key).toBe(`t:${NAME}:d@America/Santiago:2026-09-06`);
  });

  it("refuses a zone the runtime does not know as invalid, naming dayTimeZone, before counting anything", async () => {
    const { api, consume } = setup("2026-06-10T12:00:00.000Z");
    for (const dayTimeZone of ["Mars/Olympus_Mons", "", "Pacific Time", 7 as unknown as string]) {
      await expect(api.throttle(NAME, { perMinute: 1, perDay: 1, dayTimeZone })).rejects.toMatchObject({
        name: "HireportError",
        code: "invalid",
        status: 422,
        fields: [{ field: "dayTimeZone", message: expect.stringContaining("IANA time zone") }],
      });
    }
    expect(consume).not.toHaveBeenCalled();
    // Nothing was counted: the one hit of the minute and of the day is still there.
    expect((await api.throttle(NAME, { perMinute: 1, perDay: 1 })).allowed).toBe(true);
    expect((await api.throttle(NAME, { perMinute: 1, perDay: 1 })).allowed).toBe(false);
  });

  it("refuses a limit that is not a positive whole number, naming it, before counting anything", async () => {
    const { api, consume } = setup("2026-06-10T12:00:00.000Z");
    for (const [field, limits] of [
      ["perMinute", { perMinute: 0, perDay: 5 }],
      ["perDay", { perMinute: 5, perDay: 2.5 }],
      ["perDay", { perMinute: 5, perDay: Number.NaN, dayTimeZone: "Europe/London" }],
    ] as const) {
      await expect(api.throttle(NAME, limits)).rejects.toMatchObject({ code: "invalid", fields: [{ field }] });
    }
    expect(consume).not.toHaveBeenCalled();
  });
});

import { describe, expect, it } from "vitest";
import type { StoredResponse } from "../../model/domain";
import type { IdempotencyClaimInput } from "../../storage";
import type { ConformanceContext } from "../context";
import { DAY, farPast, HOUR, newId, now, parallel, SECOND, shift } from "../fixtures";

function newClaimInput(at: Date, overrides: Partial<IdempotencyClaimInput> = {}): IdempotencyClaimInput {
  return {
    keyId: newId("key"),
    idempotencyKey: `idem-${newId("k")}`,
    requestHash: `hash-${newId("h")}`,
    now: at,
    expiresAt: shift(at, DAY),
    lockedUntil: shift(at, 30 * SECOND),
    ...overrides,
  };
}

const RESPONSE: StoredResponse = {
  status: 201,
  headers: { "content-type": "application/json", "x-request-id": "req_1" },
  body: '{"data":{"id":"app_1","name":"Zoë 🚀"}}',
};

export function idempotencyTests(ctx: ConformanceContext): void {
  /** `newClaimInput` with its key id noted for removal after the last test. */
  function claimInput(at: Date, overrides: Partial<IdempotencyClaimInput> = {}): IdempotencyClaimInput {
    const input = newClaimInput(at, overrides);
    ctx.ownKey(input.keyId);
    return input;
  }

  describe("idempotency", () => {
    it("claims a new key; a second claim sees it in progress with the first request's hash", async () => {
      const t = now();
      const input = claimInput(t);
      expect(await ctx.storage.idempotency.claim(input)).toEqual({ state: "claimed" });
      expect(await ctx.storage.idempotency.claim({ ...input, requestHash: "other", now: shift(t, SECOND) })).toEqual({
        state: "in_progress",
        requestHash: input.requestHash,
      });
    });

    it("returns the stored response once completed, also after lockedUntil", async () => {
      const t = now();
      const input = claimInput(t);
      await ctx.storage.idempotency.claim(input);
      await ctx.storage.idempotency.complete(input.keyId, input.idempotencyKey, RESPONSE);
      const completed = { state: "completed", requestHash: input.requestHash, response: RESPONSE };
      expect(await ctx.storage.idempotency.claim({ ...input, now: shift(t, SECOND) })).toEqual(completed);
      expect(await ctx.storage.idempotency.claim({ ...input, requestHash: "x", now: shift(t, HOUR) })).toEqual(
        completed,
      );
    });

    it("lets a retry take over an unfinished claim once lockedUntil has passed", async () => {
      const t = now();
      const input = claimInput(t);
      await ctx.storage.idempotency.claim(input);
      expect(await ctx.storage.idempotency.claim({ ...input, now: shift(t, 10 * SECOND) })).toEqual({
        state: "in_progress",
        requestHash: input.requestHash,
      });
      const retry = { ...input, now: shift(t, 31 * SECOND), lockedUntil: shift(t, 61 * SECOND) };
      expect(await ctx.storage.idempotency.claim(retry)).toEqual({ state: "claimed" });
      // The takeover holds a new lock.
      expect(await ctx.storage.idempotency.claim({ ...input, now: shift(t, 40 * SECOND) })).toEqual({
        state: "in_progress",
        requestHash: input.requestHash,
      });
    });

    it("claims again after the record expired, even a completed one", async () => {
      const t = now();
      const input = claimInput(t);
      await ctx.storage.idempotency.claim(input);
      await ctx.storage.idempotency.complete(input.keyId, input.idempotencyKey, RESPONSE);
      const later = shift(t, DAY + SECOND);
      expect(
        await ctx.storage.idempotency.claim({
          ...input,
          requestHash: "new",
          now: later,
          expiresAt: shift(later, DAY),
          lockedUntil: shift(later, 30 * SECOND),
        }),
      ).toEqual({ state: "claimed" });
      expect(await ctx.storage.idempotency.claim({ ...input, now: shift(later, SECOND) })).toEqual({
        state: "in_progress",
        requestHash: "new",
      });
    });

    it("keeps keys of different API keys apart", async () => {
      const t = now();
      const input = claimInput(t);
      await ctx.storage.idempotency.claim(input);
      expect(await ctx.storage.idempotency.claim({ ...input, keyId: ctx.ownKey(newId("key")) })).toEqual({
        state: "claimed",
      });
      expect(await ctx.storage.idempotency.claim({ ...input, idempotencyKey: `${input.idempotencyKey}-2` })).toEqual({
        state: "claimed",
      });
    });

    it("gives exactly one of 10 parallel claims of one key `claimed`", async () => {
      const input = claimInput(now());
      const results = await parallel(10, () => ctx.storage.idempotency.claim(input));
      expect(results.filter((r) => r.state === "claimed")).toHaveLength(1);
      expect(results.filter((r) => r.state === "in_progress")).toHaveLength(9);
      await ctx.expectRaw("countIdempotencyRecords", [input.keyId], 1);
    });

    it("release forgets an unfinished claim so that a retry runs again", async () => {
      const t = now();
      const input = claimInput(t);
      await ctx.storage.idempotency.claim(input);
      await ctx.storage.idempotency.release(input.keyId, input.idempotencyKey);
      expect(await ctx.storage.idempotency.claim({ ...input, now: shift(t, SECOND) })).toEqual({ state: "claimed" });
    });

    it("purgeExpired deletes expired records and keeps the others", async () => {
      const x = farPast();
      const keyId = ctx.ownKey(newId("key"));
      const expired = claimInput(shift(x, -2 * DAY), { keyId });
      const live = claimInput(shift(x, -HOUR), { keyId });
      await ctx.storage.idempotency.claim(expired);
      await ctx.storage.idempotency.claim(live);
      await ctx.storage.idempotency.complete(keyId, live.idempotencyKey, RESPONSE);
      expect(await ctx.storage.idempotency.purgeExpired(x)).toBeGreaterThanOrEqual(1);
      await ctx.expectRaw("countIdempotencyRecords", [keyId], 1);
      expect(await ctx.storage.idempotency.claim({ ...live, now: x })).toEqual({
        state: "completed",
        requestHash: live.requestHash,
        response: RESPONSE,
      });
    });
  });
}

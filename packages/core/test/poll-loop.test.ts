import { describe, expect, it } from "vitest";
import { createPollLoop } from "../src/events/poll-loop";

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createPollLoop (the webhook dispatcher's and the job-indexing notifier's loop)", () => {
  it("runs a pass at once on start, then one per interval", async () => {
    let passes = 0;
    const loop = createPollLoop({ pass: async () => void passes++, intervalMs: 30, onError: () => {} });
    expect(loop.running).toBe(false);
    loop.start();
    loop.start();
    expect(loop.running).toBe(true);
    await tick();
    expect(passes).toBe(1);
    await tick(100);
    expect(passes).toBeGreaterThanOrEqual(3);
    await loop.stop();
    expect(loop.running).toBe(false);
  });

  it("wake() ends the wait at once; a wake-up during a pass starts the next one without a wait", async () => {
    let passes = 0;
    let release: (() => void) | null = null;
    const loop = createPollLoop({
      pass: async () => {
        passes++;
        if (passes === 2) await new Promise<void>((resolve) => (release = resolve));
      },
      intervalMs: 60_000,
      onError: () => {},
    });
    loop.start();
    await tick(10);
    expect(passes).toBe(1);
    loop.wake();
    await tick(10);
    expect(passes).toBe(2);
    loop.wake();
    (release as unknown as () => void)();
    await tick(10);
    expect(passes).toBe(3);
    await loop.stop();
  });

  it("a wake-up before start is dropped", async () => {
    let passes = 0;
    const loop = createPollLoop({ pass: async () => void passes++, intervalMs: 60_000, onError: () => {} });
    loop.wake();
    loop.start();
    await tick(20);
    expect(passes).toBe(1);
    await loop.stop();
  });

  it("stop() waits for the pass under way and starts no other", async () => {
    let passes = 0;
    let ended = false;
    const loop = createPollLoop({
      pass: async () => {
        passes++;
        await tick(50);
        ended = true;
      },
      intervalMs: 0,
      onError: () => {},
    });
    loop.start();
    await tick(10);
    await loop.stop();
    expect(ended).toBe(true);
    expect(passes).toBe(1);
    loop.wake();
    await tick(20);
    expect(passes).toBe(1);
  });

  it("a failed pass is reported with the failures in a row and the loop goes on", async () => {
    const seen: number[] = [];
    let passes = 0;
    const loop = createPollLoop({
      pass: async () => {
        passes++;
        if (passes <= 2) throw new Error(`pass ${passes}`);
      },
      intervalMs: 5,
      onError: (_error, failures) => seen.push(failures),
    });
    loop.start();
    await tick(60);
    await loop.stop();
    expect(seen).toEqual([1, 2]);
    expect(passes).toBeGreaterThan(3);
  });

  it("with backoffMs, a failure waits the backoff, which wake() ends but a wake-up during the pass does not skip", async () => {
    const waits: number[] = [];
    let passes = 0;
    let wakeDuringPass = false;
    const loop = createPollLoop({
      pass: async () => {
        passes++;
        if (wakeDuringPass) loop.wake();
        throw new Error("storage down");
      },
      intervalMs: 1,
      onError: () => {},
      backoffMs: (failures) => {
        waits.push(failures);
        return 60_000;
      },
    });
    wakeDuringPass = true;
    loop.start();
    await tick(30);
    expect(passes).toBe(1);
    expect(waits).toEqual([1]);
    wakeDuringPass = false;
    loop.wake();
    await tick(10);
    expect(passes).toBe(2);
    expect(waits).toEqual([1, 2]);
    await loop.stop();
  });
});

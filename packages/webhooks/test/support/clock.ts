import type { Clock } from "@hireport/core";

/** A clock that moves only when told to. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(at: Date): void;
}

export function manualClock(start = new Date("2026-03-01T09:00:00.000Z")): ManualClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
    set(at) {
      now = at.getTime();
    },
  };
}

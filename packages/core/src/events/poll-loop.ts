/**
 * The wakeable poll loop of a background worker that drains what the storage holds for it: the
 * webhook dispatcher's delivery loop (`@hireport/webhooks`) and the careers site's job-indexing
 * notifier (`@hireport/careers`). It lives in core, the one package both depend on.
 *
 * The loop runs a pass, then waits `intervalMs`, again and again until stopped:
 * - `wake()` ends the wait under way at once; asked for during a pass, it makes the next pass start
 *   as soon as that one ends, without a wait. A wake-up asked for before `start()` is dropped.
 * - A pass that throws never stops the loop: `onError` hears of it, with the count of passes that
 *   failed in a row. With `backoffMs`, the loop then waits `backoffMs(failures)` (a wait `wake()`
 *   ends, but a wake-up asked for during the failed pass does not skip); without, it goes on as
 *   after a pass that succeeded.
 * - `stop()` lets no pass start, ends the wait under way, and resolves when the pass under way ends.
 *
 * It adds nothing per pass but the call of `pass`: the dispatcher's loop is on a benchmarked path.
 */

export interface PollLoopOptions {
  /** One pass of the worker. A rejection is given to `onError`, never thrown. */
  pass: () => Promise<void>;
  /** The wait after a pass, in milliseconds, unless `wake()` ends it. */
  intervalMs: number;
  /** Hears of a pass that failed, with the count of passes that failed in a row (1 for the first). */
  onError: (error: unknown, failures: number) => void;
  /** The wait after `failures` passes failed in a row. @default the wait after a pass that succeeded */
  backoffMs?: (failures: number) => number;
}

export interface PollLoop {
  /** True from `start()` to `stop()`. */
  readonly running: boolean;
  /** Starts the loop; its first pass starts at once. Does nothing when it runs. */
  start(): void;
  /** Asks for a pass now (see above). */
  wake(): void;
  /** Stops the loop: resolves when the pass under way, if any, ends. */
  stop(): Promise<void>;
}

/** Creates a stopped poll loop. */
export function createPollLoop(options: PollLoopOptions): PollLoop {
  const { pass, intervalMs, onError, backoffMs } = options;
  let running = false;
  let loop: Promise<void> | null = null;
  let wakeRequested = false;
  let wakeSleeper: (() => void) | null = null;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = null;
        resolve();
      }
      wakeSleeper = done;
    });

  const wake = (): void => {
    wakeRequested = true;
    wakeSleeper?.();
  };

  async function run(): Promise<void> {
    let failures = 0;
    while (running) {
      wakeRequested = false;
      try {
        await pass();
        failures = 0;
      } catch (error) {
        failures++;
        onError(error, failures);
      }
      if (!running) break;
      if (failures > 0 && backoffMs) {
        await sleep(backoffMs(failures));
        continue;
      }
      if (wakeRequested) continue;
      await sleep(intervalMs);
    }
  }

  return {
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake,
    async stop() {
      running = false;
      wake();
      await loop;
      loop = null;
    },
  };
}

import type { AttemptOutcome, AttemptToRecord, RecordAttemptResult, WebhookStore } from "../store/webhook-store";

export interface AttemptRecorderContext {
  store: () => WebhookStore;
  /** Most attempts written by one `recordAttempts` call. */
  maxBatch: number;
  /** Retries a write that failed for a passing reason. */
  retry: <T>(write: () => Promise<T>) => Promise<T>;
}

/** Records finished attempts in batches (group commit). */
export interface AttemptRecorder {
  /** Resolves with what `recordAttempt` would return for this attempt, once it is written. */
  record(deliveryId: string, leaseToken: string, outcome: AttemptOutcome): Promise<RecordAttemptResult>;
}

interface Waiting {
  item: AttemptToRecord;
  resolve: (result: RecordAttemptResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of attempts: an attempt that finishes while no write is running is written at once
 * (no added latency when the load is light); those that finish while one runs wait for it and are
 * written together by the next `recordAttempts` (one transaction of a few statements for all of
 * them instead of one transaction each). Should a batch fail even after its retries (one attempt
 * the storage refuses, say), its attempts are written one by one, so that the others are not lost.
 */
export function createAttemptRecorder({ store, maxBatch, retry }: AttemptRecorderContext): AttemptRecorder {
  const queue: Waiting[] = [];
  let writing = false;

  async function writeOneByOne(batch: readonly Waiting[]): Promise<void> {
    await Promise.all(
      batch.map(({ item, resolve, reject }) =>
        retry(() => store().recordAttempt(item.deliveryId, item.leaseToken, item.outcome)).then(resolve, reject),
      ),
    );
  }

  async function run(): Promise<void> {
    writing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        let results: RecordAttemptResult[];
        try {
          results = await retry(() => store().recordAttempts(batch.map((waiting) => waiting.item)));
        } catch (error) {
          if (batch.length === 1) batch[0]?.reject(error);
          else await writeOneByOne(batch);
          continue;
        }
        batch.forEach((waiting, index) => {
          const result = results[index];
          if (result) waiting.resolve(result);
          else waiting.reject(new Error("recordAttempts returned fewer results than attempts"));
        });
      }
    } finally {
      writing = false;
    }
  }

  return {
    record(deliveryId, leaseToken, outcome) {
      return new Promise<RecordAttemptResult>((resolve, reject) => {
        queue.push({ item: { deliveryId, leaseToken, outcome }, resolve, reject });
        if (!writing) void run();
      });
    },
  };
}

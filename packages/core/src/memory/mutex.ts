/**
 * A first-in first-out async mutex: `run` calls queue behind each other, so at most one holds the
 * lock at a time. A rejected call releases the lock like a resolved one.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier call has settled, and settles with its outcome. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

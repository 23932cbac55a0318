import type { CompanyStore } from "../storage";

/** The per-company sequences that number references: `JOB-1042`, `APP-20931`. */
export type SequenceKind = "job" | "application";

/** A block used up sooner than this after it was reserved: the next one is twice as large. */
const GROW_WITHIN_MS = 1_000;
/** A block that lasted longer than this: the next one is half as large. */
const SHRINK_AFTER_MS = 10_000;
/**
 * Companies and kinds remembered at once; past it, the one remembered longest without a
 * reservation under way is forgotten (its unused numbers skipped).
 */
const MAX_TRACKED = 10_000;

interface Block {
  /** The next number to hand out; past `end` the block is used up. */
  next: number;
  end: number;
  /** How many numbers the next reservation asks for (1 to `maxBlock`). */
  size: number;
  /** When the current block was reserved (ms, monotonic); 0 before the first. */
  reservedAt: number;
  /** The reservation under way, which every caller that finds the block used up waits for. */
  pending: Promise<void> | null;
}

/**
 * Hands out the numbers of a company's references, reserved from the storage's counter
 * (`companies.reserveSequence`, one write) in blocks while a process takes them fast.
 *
 * A company's counter is one row that every job or application created for it writes, so
 * concurrent creates queue on that row, and on Postgres the waiting costs more than the write
 * itself. A block is therefore sized by how fast its numbers go: it doubles while each is used up
 * within a second of being reserved, up to `maxBlock`, and halves once one lasts longer than ten
 * seconds. A company that gets an application now and then reserves one number at a time.
 *
 * Numbers are unique per company and kind and, within one process, handed out in order. Across
 * processes, blocks interleave (a reference's number does not say which came first), and the
 * numbers of a block a process had not used up when it stopped are skipped.
 */
export class ReferenceNumbers {
  readonly #companies: CompanyStore;
  readonly #maxBlock: number;
  readonly #now: () => number;
  readonly #blocks = new Map<string, Block>();

  /**
   * @param companies where the counters live.
   * @param maxBlock the most numbers one reservation asks for; 1 reserves each number alone.
   * @param now a monotonic clock in ms (tests pass their own).
   */
  constructor(companies: CompanyStore, maxBlock: number, now: () => number = () => performance.now()) {
    this.#companies = companies;
    this.#maxBlock = maxBlock;
    this.#now = now;
  }

  /** The next number of the company's `kind` sequence, never handed out before. */
  async next(companyId: string, kind: SequenceKind): Promise<number> {
    const block = this.#block(`${kind}\u0000${companyId}`);
    for (;;) {
      if (block.next <= block.end) return block.next++;
      if (!block.pending) {
        block.pending = this.#reserve(block, companyId, kind).finally(() => {
          block.pending = null;
        });
      }
      // A failed reservation fails every caller waiting for it; the next call tries again.
      await block.pending;
    }
  }

  async #reserve(block: Block, companyId: string, kind: SequenceKind): Promise<void> {
    if (block.reservedAt > 0) {
      const lasted = this.#now() - block.reservedAt;
      if (lasted < GROW_WITHIN_MS) block.size = Math.min(this.#maxBlock, block.size * 2);
      else if (lasted > SHRINK_AFTER_MS) block.size = Math.max(1, Math.floor(block.size / 2));
    }
    const first = await this.#companies.reserveSequence(companyId, kind, block.size);
    block.next = first;
    block.end = first + block.size - 1;
    block.reservedAt = this.#now();
  }

  #block(key: string): Block {
    const known = this.#blocks.get(key);
    if (known) return known;
    if (this.#blocks.size >= MAX_TRACKED) {
      for (const [oldKey, old] of this.#blocks) {
        if (old.pending) continue;
        this.#blocks.delete(oldKey);
        break;
      }
    }
    const block: Block = { next: 1, end: 0, size: 1, reservedAt: 0, pending: null };
    this.#blocks.set(key, block);
    return block;
  }
}

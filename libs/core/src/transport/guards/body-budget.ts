/** The part of every body that never counts against the shared budget: a typical call is far smaller. */
export const FREE_BODY_BYTES = 16 * 1024;

/**
 * The body bytes buffered across all requests at once. Large bodies reserve from it as they
 * arrive; when it is spent, the request that asked for more is refused, so a flood of large or
 * stalled bodies costs bounded memory and never starves small calls (their first 16 KiB is free).
 */
export class BodyBudget {
  #available: number;

  constructor(readonly total: number) {
    this.#available = total;
  }

  get available(): number {
    return this.#available;
  }

  /** Takes `bytes` if they are there; false (and nothing taken) otherwise. */
  reserve(bytes: number): boolean {
    if (bytes > this.#available) return false;
    this.#available -= bytes;
    return true;
  }

  release(bytes: number): void {
    this.#available = Math.min(this.total, this.#available + bytes);
  }
}

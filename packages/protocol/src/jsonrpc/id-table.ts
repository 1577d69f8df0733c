/**
 * A table keyed by request id for the engine's bookkeeping (our requests awaiting an answer, the
 * peer's requests being handled). Runtime-neutral.
 */
import type { RequestId } from './types.js';

/**
 * A `Map` from request ids, for tables that mostly hold one entry at a time: a request, its
 * answer, then the next request with a new id. A `Map` whose keys keep changing rebuilds its
 * backing store every few insertions (~350 ns a request in V8 11, a tenth of a round trip's
 * engine cost); here the oldest entry lives in two fields and only the others go to a `Map`.
 * Ids compare like `Map` keys (a request id is never NaN). Iteration is in insertion order.
 *
 * @example
 * const table = new IdTable<{ method: string }>();
 * table.set(1, { method: 'initialize' });
 * table.get(1); // { method: 'initialize' }
 * table.delete(1);
 */
export class IdTable<V extends object> {
  /** The oldest entry (`undefined` when the table is empty). */
  private firstId: RequestId | undefined;
  private first: V | undefined;
  /** Entries added while `first` was taken, in insertion order. */
  private readonly others = new Map<RequestId, V>();

  get size(): number {
    return (this.first === undefined ? 0 : 1) + this.others.size;
  }

  get(id: unknown): V | undefined {
    if (this.first !== undefined && id === this.firstId) return this.first;
    return this.others.size === 0 ? undefined : this.others.get(id as RequestId);
  }

  has(id: unknown): boolean {
    return this.get(id) !== undefined;
  }

  /** Adds or replaces the entry of `id`. */
  set(id: RequestId, value: V): void {
    if (this.first !== undefined && id === this.firstId) {
      this.first = value;
    } else if (this.first === undefined && this.others.size === 0) {
      this.firstId = id;
      this.first = value;
    } else {
      this.others.set(id, value);
    }
  }

  delete(id: unknown): boolean {
    if (this.first !== undefined && id === this.firstId) {
      this.first = undefined;
      this.firstId = undefined;
      // The oldest of the others becomes the first: insertion order is kept.
      if (this.others.size > 0) this.promoteOldest();
      return true;
    }
    return this.others.size > 0 && this.others.delete(id as RequestId);
  }

  /** The values, oldest first (a copy: the table may change while the caller goes through them). */
  values(): V[] {
    const values: V[] = this.first === undefined ? [] : [this.first];
    for (const value of this.others.values()) values.push(value);
    return values;
  }

  clear(): void {
    this.first = undefined;
    this.firstId = undefined;
    this.others.clear();
  }

  private promoteOldest(): void {
    for (const [id, value] of this.others) {
      this.others.delete(id);
      this.firstId = id;
      this.first = value;
      return;
    }
  }
}

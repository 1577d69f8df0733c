/**
 * Copy-on-write editing of a {@link SessionState} for the reducer: each array or record is copied
 * at most once per batch of events, so replaying 100,000 updates costs what applying them costs,
 * while every snapshot handed out stays immutable.
 */
import type { SessionState, TerminalView, TranscriptItem } from './state.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A state being edited. */
export class Draft {
  readonly state: Mutable<SessionState>;
  /**
   * The arrays and records this draft copied (at most one of each kind): a plain list, since a
   * `WeakSet` per draft (one per streamed chunk) cost its allocation and the collector's weak
   * processing.
   */
  private readonly owned: object[] = [];

  constructor(base: SessionState) {
    this.state = { ...base };
  }

  /** The items array, writable. */
  items(): TranscriptItem[] {
    return this.own('items', (v) => [...v]) as TranscriptItem[];
  }

  toolCallIndex(): Record<string, number> {
    return this.own('toolCallIndex', (v) => ({ ...v })) as Record<string, number>;
  }

  messageIndex(): Record<string, number> {
    return this.own('messageIndex', (v) => ({ ...v })) as Record<string, number>;
  }

  terminals(): Record<string, TerminalView> {
    return this.own('terminals', (v) => ({ ...v })) as Record<string, TerminalView>;
  }

  /** Appends an item with the next key; returns its index. */
  push(item: DistributiveOmit<TranscriptItem, 'key'>): number {
    const items = this.items();
    // Keys stay unique when a retention policy drops old items: they count the dropped ones too.
    items.push({ ...item, key: String((this.state.itemsDropped ?? 0) + items.length) } as TranscriptItem);
    return items.length - 1;
  }

  private own<K extends 'items' | 'toolCallIndex' | 'messageIndex' | 'terminals'>(
    key: K,
    copy: (value: SessionState[K]) => SessionState[K],
  ): SessionState[K] {
    const current = this.state[key];
    if (this.owned.includes(current as object)) return current;
    const next = copy(current);
    this.owned.push(next as object);
    this.state[key] = next;
    return next;
  }
}

/** `Omit` applied to each member of a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A session's live traffic: the redacted frames the connection's trace router delivers, kept in a
 * bounded buffer of the most recent ones and passed on to subscribers as they arrive.
 */
import type { TraceFrame } from '../persistence/trace.js';
import { Emitter, type Unsubscribe } from '../util/emitter.js';

/** Most frames a session keeps for {@link FrameFeed.recent}. */
export const RECENT_FRAMES = 500;
/** Most bytes (of trace lines) those frames may take; older frames go first. */
export const RECENT_FRAME_BYTES = 4 * 1024 * 1024;

/**
 * The most recent frames (a ring buffer bounded by count and size) and their subscribers.
 *
 * @example
 * const feed = new FrameFeed();
 * const off = feed.subscribe((frame) => console.log(frame.dir, frame.frame));
 */
export class FrameFeed {
  private readonly frames: (TraceFrame | undefined)[];
  private readonly sizes: number[];
  private head = 0;
  private count = 0;
  private bytes = 0;
  private readonly events = new Emitter<{ frame: TraceFrame }>();

  constructor(
    maxFrames = RECENT_FRAMES,
    private readonly maxBytes = RECENT_FRAME_BYTES,
  ) {
    this.frames = new Array<TraceFrame | undefined>(Math.max(1, maxFrames));
    this.sizes = new Array<number>(Math.max(1, maxFrames)).fill(0);
  }

  /** Adds a frame (`size`: the length of its trace line) and tells the subscribers. */
  push(frame: TraceFrame, size: number): void {
    this.keep(frame, size);
    this.events.emit('frame', frame);
  }

  /** Adds frames recorded earlier (a reopened session's trace) without telling anyone. */
  preload(frames: readonly { frame: TraceFrame; size: number }[]): void {
    for (const { frame, size } of frames) this.keep(frame, size);
  }

  /** The kept frames, oldest first. */
  recent(): TraceFrame[] {
    const out: TraceFrame[] = [];
    const capacity = this.frames.length;
    for (let i = 0; i < this.count; i++) out.push(this.frames[(this.head + i) % capacity] as TraceFrame);
    return out;
  }

  /** Calls `listener` with every frame from now on; returns the unsubscribe function. */
  subscribe(listener: (frame: TraceFrame) => void): Unsubscribe {
    return this.events.on('frame', listener);
  }

  private keep(frame: TraceFrame, size: number): void {
    const capacity = this.frames.length;
    if (this.count === capacity) this.dropOldest();
    const index = (this.head + this.count) % capacity;
    this.frames[index] = frame;
    this.sizes[index] = size;
    this.count++;
    this.bytes += size;
    // The newest frame stays even when it alone is over the byte budget.
    while (this.bytes > this.maxBytes && this.count > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const capacity = this.frames.length;
    this.bytes -= this.sizes[this.head] ?? 0;
    this.frames[this.head] = undefined;
    this.head = (this.head + 1) % capacity;
    this.count--;
  }
}

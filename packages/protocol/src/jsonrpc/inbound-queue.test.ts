import { describe, expect, it, vi } from 'vitest';
import { InboundQueue, type InboundQueueOptions } from './inbound-queue.js';
import { deferred, eventually } from './test-support/raw-peer.js';

function options(overrides: Partial<InboundQueueOptions> = {}): InboundQueueOptions {
  return { highWater: 1024, onPause: vi.fn(), onResume: vi.fn(), onAsyncError: vi.fn(), ...overrides };
}

describe('InboundQueue', () => {
  it('processes items synchronously while handlers are synchronous (no queueing, no promises)', () => {
    const seen: number[] = [];
    const queue = new InboundQueue<number>((item) => void seen.push(item), options());
    queue.push(1);
    queue.push(2);
    expect(seen).toEqual([1, 2]);
    expect(queue.size).toBe(0);
  });

  it('waits for a returned thenable before the next item', async () => {
    const seen: string[] = [];
    const gate = deferred();
    const queue = new InboundQueue<string>((item) => {
      seen.push(item);
      return item === 'slow' ? gate.promise : undefined;
    }, options());
    queue.push('slow');
    queue.push('next');
    expect(seen).toEqual(['slow']);
    expect(queue.size).toBe(1);
    gate.resolve();
    await eventually(() => seen.length === 2);
    expect(seen).toEqual(['slow', 'next']);
  });

  it('reports a rejected thenable and moves on', async () => {
    const onAsyncError = vi.fn();
    const seen: string[] = [];
    const queue = new InboundQueue<string>((item) => {
      seen.push(item);
      return item === 'bad' ? Promise.reject(new Error('nope')) : undefined;
    }, options({ onAsyncError }));
    queue.push('bad');
    queue.push('good');
    await eventually(() => seen.length === 2);
    expect(onAsyncError).toHaveBeenCalledWith(expect.objectContaining({ message: 'nope' }));
  });

  it('processes items pushed re-entrantly, in order', () => {
    const seen: number[] = [];
    const queue: InboundQueue<number> = new InboundQueue<number>((item) => {
      seen.push(item);
      if (item === 1) queue.push(2);
      return undefined;
    }, options());
    queue.push(1);
    expect(seen).toEqual([1, 2]);
  });

  it('pauses above highWater and resumes at half', async () => {
    const onPause = vi.fn();
    const onResume = vi.fn();
    const gates: (() => void)[] = [];
    const queue = new InboundQueue<number>(
      () => new Promise<void>((resolve) => gates.push(resolve)),
      options({ highWater: 4, onPause, onResume }),
    );
    for (let i = 0; i < 7; i++) queue.push(i);
    expect(queue.size).toBe(6);
    expect(onPause).toHaveBeenCalledTimes(1);
    for (let done = 1; queue.size > 2; done++) {
      gates[done - 1]?.();
      await eventually(() => gates.length === done + 1);
      if (queue.size > 2) expect(onResume).not.toHaveBeenCalled();
    }
    expect(onResume).toHaveBeenCalledTimes(1);
  });

  it('pauses when the queued weight passes highWaterWeight, and resumes at half of it', async () => {
    const onPause = vi.fn();
    const onResume = vi.fn();
    const gates: (() => void)[] = [];
    const queue = new InboundQueue<number>(
      () => new Promise<void>((resolve) => gates.push(resolve)),
      options({ highWater: 1000, highWaterWeight: 100, onPause, onResume }),
    );
    queue.push(0, 10); // being processed: not counted
    queue.push(1, 60);
    expect(onPause).not.toHaveBeenCalled();
    queue.push(2, 50);
    expect(queue.queuedWeight).toBe(110);
    expect(onPause).toHaveBeenCalledTimes(1);
    gates[0]?.(); // item 1 leaves the queue: 50 left, at half
    await eventually(() => gates.length === 2);
    expect(queue.queuedWeight).toBe(50);
    expect(onResume).toHaveBeenCalledTimes(1);
  });

  it('processes what onResume pushes at once (a channel handing over what it read while paused)', async () => {
    const seen: number[] = [];
    const gate = deferred();
    let resumed = 0;
    const queue: InboundQueue<number> = new InboundQueue<number>(
      (item) => {
        seen.push(item);
        return item === 0 ? gate.promise : undefined;
      },
      options({
        highWater: 2,
        onResume: () => {
          if (++resumed === 1) for (let i = 10; i < 13; i++) queue.push(i);
        },
      }),
    );
    for (let i = 0; i < 4; i++) queue.push(i);
    gate.resolve();
    await eventually(() => seen.length === 7);
    expect(resumed).toBe(2);
    expect(seen).toEqual([0, 1, 2, 3, 10, 11, 12]);
    expect(queue.size).toBe(0);
  });

  it('clear() drops waiting items', async () => {
    const gate = deferred();
    const seen: number[] = [];
    const queue = new InboundQueue<number>((item) => {
      seen.push(item);
      return item === 0 ? gate.promise : undefined;
    }, options());
    queue.push(0);
    queue.push(1);
    queue.clear();
    gate.resolve();
    await gate.promise;
    await Promise.resolve();
    expect(seen).toEqual([0]);
    queue.push(2);
    expect(seen).toEqual([0, 2]);
  });
});

import { describe, expect, it } from 'vitest';
import { OutStream, type StreamReceiver } from './out-stream.js';

function receiver(capacity = Infinity) {
  const got: [number, string][] = [];
  const detached: string[] = [];
  const r: StreamReceiver & { got: typeof got; detached: string[] } = {
    got,
    detached,
    send: (id, data) => {
      got.push([id, data]);
      return got.length !== capacity;
    },
    detach: (reason) => detached.push(reason),
  };
  return r;
}

describe('OutStream', () => {
  it('numbers events, queues them without a receiver and keeps count of the queued bytes', () => {
    let queued = 0;
    const stream = new OutStream({ maxEvents: 10, maxBytes: 1000 }, (delta) => (queued += delta));
    stream.push('aa');
    stream.push('bbb');
    expect(queued).toBe(5);
    const r = receiver();
    expect(stream.attach(r)).toEqual({ ok: true, replayed: 0 });
    expect(r.got).toEqual([
      [1, 'aa'],
      [2, 'bbb'],
    ]);
    expect(queued).toBe(0);
  });

  it('replays what followed the last event a resuming receiver saw, replacing the old one', () => {
    const stream = new OutStream({ maxEvents: 10, maxBytes: 1000 }, () => undefined);
    const first = receiver();
    stream.attach(first);
    for (const text of ['a', 'b', 'c', 'd']) stream.push(text);
    const second = receiver();
    expect(stream.attach(second, 2)).toEqual({ ok: true, replayed: 2 });
    expect(first.detached).toEqual(['replaced']);
    expect(second.got).toEqual([
      [3, 'c'],
      [4, 'd'],
    ]);
    stream.push('e');
    expect(second.got.at(-1)).toEqual([5, 'e']);
  });

  it('refuses a second receiver that does not resume, a gap past the buffer and an id never sent', () => {
    const stream = new OutStream({ maxEvents: 3, maxBytes: 1000 }, () => undefined);
    stream.attach(receiver());
    for (let i = 0; i < 10; i++) stream.push(`e${i}`);
    expect(stream.attach(receiver())).toEqual({ ok: false, reason: 'busy' });
    expect(stream.attach(receiver(), 5)).toEqual({ ok: false, reason: 'gap', oldest: 8 });
    expect(stream.attach(receiver(), 11)).toEqual({ ok: false, reason: 'invalid' });
    expect(stream.attach(receiver(), 7)).toEqual({ ok: true, replayed: 3 });
  });

  it('waits for a backed-up receiver to drain, and detaches it as finished once all was sent', () => {
    const stream = new OutStream({ maxEvents: 10, maxBytes: 1000 }, () => undefined);
    const r = receiver(1);
    stream.attach(r);
    stream.push('a');
    stream.push('b');
    stream.finish();
    expect(r.got).toEqual([[1, 'a']]);
    expect(r.detached).toEqual([]);
    stream.drained(r);
    expect(r.got).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(r.detached).toEqual(['finished']);
  });
});

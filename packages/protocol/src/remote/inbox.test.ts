import { describe, expect, it } from 'vitest';
import { INBOX_HOLD_CHARS, Inbox } from './inbox.js';

function recorder() {
  const got: string[] = [];
  const sink = {
    data: (chunk: Uint8Array) => void got.push(new TextDecoder().decode(chunk)),
    end: () => void got.push('END'),
  };
  return { got, sink };
}

describe('Inbox', () => {
  it('holds messages until start and while paused, one a line, and ends after them', async () => {
    const inbox = new Inbox();
    const { got, sink } = recorder();
    inbox.push('{"a":1}');
    inbox.start(sink);
    expect(got).toEqual([]);
    await Promise.resolve();
    expect(got).toEqual(['{"a":1}\n']);
    inbox.pause();
    inbox.push('{"b":\n2}');
    inbox.end(undefined);
    expect(got).toEqual(['{"a":1}\n']);
    inbox.resume();
    expect(got).toEqual(['{"a":1}\n', '{"b": 2}\n', 'END']);
    inbox.push('{"late":1}');
    expect(got).toHaveLength(3);
  });

  it('delivers an end that came before start once started', async () => {
    const inbox = new Inbox();
    const { got, sink } = recorder();
    inbox.push('{"a":1}');
    inbox.end(undefined);
    inbox.start(sink);
    await Promise.resolve();
    expect(got).toEqual(['{"a":1}\n', 'END']);
  });

  it('hands what arrived during a pause over in one read when resumed, as a pipe does', async () => {
    const inbox = new Inbox();
    const { got, sink } = recorder();
    inbox.start(sink);
    await Promise.resolve();
    inbox.pause();
    for (let i = 1; i <= 50; i++) inbox.push(`{"n":${i}}`);
    expect(got).toEqual([]);
    inbox.resume();
    expect(got).toEqual([Array.from({ length: 50 }, (_, i) => `{"n":${i + 1}}\n`).join('')]);
  });

  it('stops its source once a paused reader leaves enough waiting, and starts it again when read', async () => {
    const calls: string[] = [];
    const inbox = new Inbox({ stop: () => void calls.push('stop'), go: () => void calls.push('go') });
    const { got, sink } = recorder();
    inbox.start(sink);
    await Promise.resolve();
    inbox.pause();
    const message = `{"x":"${'x'.repeat(1000)}"}`;
    let pushed = 0;
    while (inbox.wantsMore) {
      inbox.push(message);
      pushed++;
    }
    expect(calls).toEqual(['stop']);
    expect(pushed * message.length).toBeGreaterThanOrEqual(INBOX_HOLD_CHARS);
    inbox.resume();
    expect(calls).toEqual(['stop', 'go']);
    expect(inbox.wantsMore).toBe(true);
    // Read a pipe's worth at a time: more than one read, every message once, in order.
    expect(got.length).toBeGreaterThan(1);
    expect(got.join('')).toBe(`${message}\n`.repeat(pushed));
  });

  it('a reader that pauses inside a read gets the rest, then the end, at its next resume', async () => {
    const inbox = new Inbox();
    const got: string[] = [];
    inbox.start({
      data: (chunk) => {
        got.push(new TextDecoder().decode(chunk));
        inbox.pause();
      },
      end: () => void got.push('END'),
    });
    await Promise.resolve();
    inbox.push('{"a":1}');
    inbox.push('{"b":2}');
    inbox.push('{"c":3}');
    inbox.end(undefined);
    expect(got).toEqual(['{"a":1}\n']);
    inbox.resume();
    expect(got).toEqual(['{"a":1}\n', '{"b":2}\n{"c":3}\n']);
    inbox.resume();
    expect(got).toEqual(['{"a":1}\n', '{"b":2}\n{"c":3}\n', 'END']);
  });
});

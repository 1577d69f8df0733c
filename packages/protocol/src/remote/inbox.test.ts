import { describe, expect, it } from 'vitest';
import { Inbox } from './inbox.js';

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
});

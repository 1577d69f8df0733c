import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AcpKitError } from '../jsonrpc/errors.js';
import { SseParser, encodeSseEvent, type SseEvent } from './sse.js';

function parse(chunks: (string | Uint8Array)[], max = 1 << 20): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event), { maxEventBytes: max });
  const encoder = new TextEncoder();
  for (const chunk of chunks) parser.feed(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  return events;
}

describe('SseParser', () => {
  it('reads data and ids, joins data lines, skips comments, takes CRLF, LF and CR endings', () => {
    expect(
      parse([':\n\nid: 1\ndata: {"a":1}\n\n', 'id: 2\r\ndata: x\r\ndata: y\r\n\r\n', 'data:z\r\r']),
    ).toEqual([
      { id: '1', data: '{"a":1}' },
      { id: '2', data: 'x\ny' },
      { id: '2', data: 'z' },
    ]);
  });

  it('gives the same events for any split of the stream, inside UTF-8 and CRLF too', () => {
    const events = [
      { id: 1, data: '{"text":"héllo 😀"}' },
      { id: 2, data: '{"k":"v"}' },
      { id: 3, data: '{}' },
    ];
    const bytes = new TextEncoder().encode(
      events
        .map((e) => encodeSseEvent(e.id, e.data))
        .join('')
        .replaceAll('\n', '\r\n'),
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set([0, ...cuts.sort((a, b) => a - b), bytes.length])];
        const chunks = points.slice(1).map((end, i) => bytes.subarray(points[i], end));
        expect(parse(chunks)).toEqual(events.map((e) => ({ id: String(e.id), data: e.data })));
      }),
      { numRuns: 300 },
    );
  });

  it('fails with MESSAGE_TOO_LARGE as soon as an event passes the limit, without waiting for its end', () => {
    let error: unknown;
    try {
      parse(['data: ' + 'x'.repeat(600), 'x'.repeat(600)], 1000);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AcpKitError);
    expect((error as AcpKitError).code).toBe('MESSAGE_TOO_LARGE');
  });
});

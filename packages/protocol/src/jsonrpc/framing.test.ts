import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AcpKitError } from './errors.js';
import { FrameDecoder, encodeFrame, utf8ByteLength, type FrameDecoderOptions } from './framing.js';

const encoder = new TextEncoder();

/** Any code points, lone surrogates included (fast-check's 'binary' unit is very slow to generate). */
const anyText = (maxLength: number) =>
  fc
    .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength })
    .map((points) => String.fromCodePoint(...points));
const bytes = (text: string) => encoder.encode(text);

function collect(options: FrameDecoderOptions = {}) {
  const frames: string[] = [];
  const errors: AcpKitError[] = [];
  const decoder = new FrameDecoder(
    { frame: (text) => frames.push(text), fatal: (e) => errors.push(e) },
    options,
  );
  return { decoder, frames, errors };
}

/** Splits `data` at the given offsets (sorted, deduplicated, within bounds). */
function splitAt(data: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.min(c, data.length)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    out.push(data.subarray(start, point));
    start = point;
  }
  out.push(data.subarray(start));
  return out;
}

describe('FrameDecoder (NDJSON)', () => {
  it('emits complete lines without their newline, in order', () => {
    const { decoder, frames } = collect();
    decoder.feed(bytes('{"a":1}\n{"b":2}\n{"c"'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}']);
    decoder.feed(bytes(':3}\n'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('strips a trailing \\r, also when CRLF is split across chunks', () => {
    const { decoder, frames } = collect();
    decoder.feed(bytes('{"a":1}\r'));
    decoder.feed(bytes('\n{"b":2}\r\n'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('skips empty and whitespace-only lines, and handles empty chunks', () => {
    const { decoder, frames } = collect();
    decoder.feed(new Uint8Array(0));
    decoder.feed(bytes('\n\r\n  \n{"a":1}\n\n'));
    decoder.feed(new Uint8Array(0));
    decoder.feed(bytes(' \t\r\n{"b":2}\n'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reassembles UTF-8 sequences split across chunks', () => {
    const { decoder, frames } = collect();
    const data = bytes('{"t":"é€😀"}\n');
    for (let i = 0; i < data.length; i++) decoder.feed(data.subarray(i, i + 1));
    expect(frames).toEqual(['{"t":"é€😀"}']);
  });

  it('skips a UTF-8 BOM at stream start, even split, but not later', () => {
    const { decoder, frames } = collect();
    const data = bytes('\uFEFF{"a":1}\n\uFEFF{"b":2}\n');
    decoder.feed(data.subarray(0, 1));
    decoder.feed(data.subarray(1, 2));
    decoder.feed(data.subarray(2));
    expect(frames).toEqual(['{"a":1}', '\uFEFF{"b":2}']);
  });

  it('keeps bytes that only look like the start of a BOM', () => {
    const { decoder, frames } = collect();
    decoder.feed(new Uint8Array([0xef]));
    decoder.feed(bytes('x\n'));
    expect(frames).toEqual(['\uFFFDx']);
  });

  it('delivers a last line without newline at end()', () => {
    const { decoder, frames } = collect();
    decoder.feed(bytes('{"a":1}\n{"b"'));
    decoder.feed(bytes(':2}\r'));
    decoder.end();
    expect(frames).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('fails once with MESSAGE_TOO_LARGE as soon as a partial line exceeds the limit, then stops', () => {
    const { decoder, frames, errors } = collect({ maxMessageBytes: 100 });
    decoder.feed(bytes('{"ok":1}\n'));
    decoder.feed(bytes('x'.repeat(60)));
    expect(errors).toHaveLength(0);
    decoder.feed(bytes('x'.repeat(60)));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(AcpKitError);
    expect(errors[0]?.code).toBe('MESSAGE_TOO_LARGE');
    expect(decoder.failed).toBe(true);
    decoder.feed(bytes('x'.repeat(500) + '\n{"late":1}\n'));
    decoder.end();
    expect(errors).toHaveLength(1);
    expect(frames).toEqual(['{"ok":1}']);
  });

  it('rejects an oversized line inside a single chunk, counting bytes not characters', () => {
    const { decoder, frames, errors } = collect({ maxMessageBytes: 30 });
    // 20 characters but 40 bytes.
    decoder.feed(bytes('{"a":1}\n' + 'é'.repeat(20) + '\n' + '{"b":2}\n'));
    expect(frames).toEqual(['{"a":1}']);
    expect(errors.map((e) => e.code)).toEqual(['MESSAGE_TOO_LARGE']);
  });

  it('accepts a line of exactly the limit', () => {
    const { decoder, frames, errors } = collect({ maxMessageBytes: 10 });
    decoder.feed(bytes('0123456789\n01234'));
    decoder.feed(bytes('56789\n'));
    expect(errors).toEqual([]);
    expect(frames).toEqual(['0123456789', '0123456789']);
  });

  it('is linear in message size: a 4 MiB line in 1 KiB chunks is quick', () => {
    const { decoder, frames } = collect();
    const chunk = bytes('x'.repeat(1024));
    const started = performance.now();
    for (let i = 0; i < 4096; i++) decoder.feed(chunk);
    decoder.feed(bytes('\n'));
    expect(frames[0]?.length).toBe(4 * 1024 * 1024);
    // Quadratic joining would take minutes; linear takes milliseconds. Generous bound for slow CI.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('uses an injected UTF-8 decoder', () => {
    const seen: number[] = [];
    const frames: string[] = [];
    const decoder = new FrameDecoder(
      { frame: (t) => frames.push(t), fatal: () => undefined },
      {
        decodeUtf8: (b) => {
          seen.push(b.length);
          return new TextDecoder().decode(b);
        },
      },
    );
    decoder.feed(bytes('{"a":1}\n{"b":2}\n'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}']);
    // One decode for all complete lines of the chunk (a chunk of whole lines: all of it).
    expect(seen).toEqual([16]);
    decoder.feed(bytes('{"c":3}\n{"d"'));
    decoder.feed(bytes(':4}\n'));
    expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']);
    // The complete line before the partial one; a line spanning reads is decoded as it arrives
    // (streaming), not by the injected decoder.
    expect(seen).toEqual([16, 7]);
  });
});

describe('FrameDecoder (Content-Length detection)', () => {
  const lsp = (json: string) => `Content-Length: ${utf8ByteLength(json)}\r\n\r\n${json}`;

  it('stays NDJSON when detection is off, even if the stream starts with the header', () => {
    const { decoder, frames } = collect();
    decoder.feed(bytes(lsp('{"a":1}')));
    decoder.end();
    expect(decoder.mode).toBe('ndjson');
    expect(frames).toEqual(['Content-Length: 7', '{"a":1}']);
  });

  it('switches to header framing when the stream starts with Content-Length:', () => {
    const { decoder, frames } = collect({ detectContentLength: true });
    const data = bytes('\r\n' + lsp('{"t":"é"}') + lsp('{"b":2}') + '\r\n' + lsp('{"c":\n3}'));
    for (let i = 0; i < data.length; i++) decoder.feed(data.subarray(i, i + 1));
    expect(decoder.mode).toBe('content-length');
    expect(frames).toEqual(['{"t":"é"}', '{"b":2}', '{"c":\n3}']);
  });

  it('accepts case-insensitive names, extra headers and bare \\n\\n separators', () => {
    const { decoder, frames } = collect({ detectContentLength: true });
    decoder.feed(bytes('content-length: 7\nContent-Type: application/json\n\n{"a":1}'));
    expect(frames).toEqual(['{"a":1}']);
  });

  it('detects NDJSON when the first bytes are not the header', () => {
    const { decoder, frames } = collect({ detectContentLength: true });
    decoder.feed(bytes('  {"a":1}\n'));
    decoder.feed(bytes('Content-Length: 3\r\n\r\n'));
    expect(decoder.mode).toBe('ndjson');
    expect(frames).toEqual(['{"a":1}', 'Content-Length: 3']);
  });

  it('holds an undecided prefix and flushes it as NDJSON at end', () => {
    const { decoder, frames } = collect({ detectContentLength: true });
    decoder.feed(bytes('Cont'));
    expect(decoder.mode).toBeUndefined();
    decoder.end();
    expect(frames).toEqual(['Cont']);
  });

  it('fails with MESSAGE_TOO_LARGE from the announced length, before the body arrives', () => {
    const { decoder, errors } = collect({ detectContentLength: true, maxMessageBytes: 10 });
    decoder.feed(bytes('Content-Length: 11\r\n\r\n'));
    expect(errors.map((e) => e.code)).toEqual(['MESSAGE_TOO_LARGE']);
  });

  it('hands a header block without a usable length on as a frame (the engine answers -32700)', () => {
    const { decoder, frames } = collect({ detectContentLength: true });
    decoder.feed(bytes('Content-Length: abc\r\n\r\n' + lsp('{"a":1}')));
    expect(frames).toEqual(['Content-Length: abc', '{"a":1}']);
  });

  it('fails on an endless header block', () => {
    const { decoder, errors } = collect({ detectContentLength: true });
    decoder.feed(bytes('Content-Length: 1\r\nX: ' + 'y'.repeat(10_000)));
    expect(errors.map((e) => e.code)).toEqual(['MESSAGE_TOO_LARGE']);
  });
});

describe('encodeFrame / utf8ByteLength', () => {
  it('encodes NDJSON and Content-Length frames', () => {
    expect(encodeFrame('{"a":"é"}')).toBe('{"a":"é"}\n');
    expect(encodeFrame('{"a":"é"}', 'content-length')).toBe('Content-Length: 10\r\n\r\n{"a":"é"}');
  });

  it('counts UTF-8 bytes like TextEncoder, lone surrogates included', () => {
    fc.assert(
      fc.property(anyText(64), (text) => {
        expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
      }),
      { seed: 1717, numRuns: 300 },
    );
  });
});

describe('FrameDecoder properties', () => {
  const message = fc.dictionary(
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.jsonValue({ maxDepth: 2 }),
    {
      maxKeys: 4,
    },
  );

  it('random chunking (inside UTF-8 sequences and CRLF) yields the same messages in order', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom('\n', '\r\n', '\n\n', '\r\n\r\n'), { minLength: 12, maxLength: 12 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat({ max: 4000 }), { maxLength: 20 }),
        (messages, terminators, bom, finalNewline, cuts) => {
          const lines = messages.map((m) => JSON.stringify(m));
          let text = bom ? '\uFEFF' : '';
          lines.forEach((line, i) => {
            text += line;
            if (i < lines.length - 1 || finalNewline) text += terminators[i] ?? '\n';
          });
          const data = bytes(text);
          const { decoder, frames, errors } = collect();
          for (const chunk of splitAt(data, cuts)) decoder.feed(chunk);
          decoder.end();
          expect(errors).toEqual([]);
          expect(frames.map((f) => JSON.parse(f))).toEqual(lines.map((l) => JSON.parse(l)));
          expect(frames).toEqual(lines);
        },
      ),
      { seed: 424242, numRuns: 300 },
    );
  });

  it('random chunking of a Content-Length stream yields the same messages in order', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat({ max: 3000 }), { maxLength: 20 }),
        (messages, cuts) => {
          const lines = messages.map((m) => JSON.stringify(m));
          const data = bytes(lines.map((l) => encodeFrame(l, 'content-length')).join(''));
          const { decoder, frames, errors } = collect({ detectContentLength: true });
          for (const chunk of splitAt(data, cuts)) decoder.feed(chunk);
          expect(errors).toEqual([]);
          expect(frames).toEqual(lines);
        },
      ),
      { seed: 99, numRuns: 200 },
    );
  });
});

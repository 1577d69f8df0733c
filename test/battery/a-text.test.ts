/**
 * A7–A10, in this process, against both readers and the real demo agent: invalid UTF-8 and odd
 * characters, deep nesting, prototype-pollution keys, and extreme ids.
 */
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { eventually } from './support/channel.js';
import { figure } from './support/figures.js';
import { assertReaderAlive, clientReader, demoAgentReader, READERS } from './support/readers.js';

const watch = fileWatch('a-text');

const encoder = new TextEncoder();

type Frame = Record<string, unknown>;

describe('A7 invalid UTF-8, lone surrogates, BOM, NUL, U+2028', () => {
  const bytes = (...parts: (string | number[])[]): Uint8Array =>
    Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...encoder.encode(p)] : p)));
  for (const { side, make } of [
    ...READERS,
    { side: 'demo agent' as const, make: () => demoAgentReader(watch.logger('demo agent')) },
  ]) {
    it(`${side} reader: defined behaviour (U+FFFD or -32700), no crash, alive after`, async () => {
      const reader = make();
      const note = (text: number[] | string) =>
        bytes(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","x":"`, text, '"}}\n');
      const cases: Uint8Array[] = [
        note([0xff, 0xfe]),
        note([0xc0, 0xaf]), // overlong '/'
        note([0xed, 0xa0, 0x80]), // a surrogate encoded as UTF-8
        note('\\ud800 lone \\udfff'),
        note([0x00]), // a raw NUL inside a string: not JSON
        note('\\u0000 escaped NUL'),
        note('\u2028\u2029 line separators'),
        bytes([0xef, 0xbb, 0xbf], '{"jsonrpc":"2.0","method":"_battery/bom"}\n'), // a BOM mid-stream
        bytes([0xff, 0x0a]),
      ];
      for (const frame of cases) reader.channel.feed(frame);
      await assertReaderAlive(reader, 'after-a7');
      for (const reply of reader.channel.out) {
        const code = ((reply as Frame).error as Frame | undefined)?.code;
        expect([undefined, -32700, -32600, -32601, -32602]).toContain(code);
      }
      // Whatever reached a handler re-serialises without throwing (lone surrogates included).
      expect(() => JSON.stringify(reader.received)).not.toThrow();
      figure({
        case: 'A7',
        name: `${side} reader: bad text handled, alive after`,
        value: 'pass',
        target: 'no crash, alive',
        pass: true,
      });
      await reader.close();
    });
  }
});

describe('A8 deep nesting in valid and invalid frames', () => {
  const depths = [5_000, 100_000, 1_000_000];
  for (const { side, make } of [
    ...READERS,
    { side: 'demo agent' as const, make: () => demoAgentReader(watch.logger('demo agent')) },
  ]) {
    it(`${side} reader: survives ${depths.join(' / ')} levels`, async () => {
      const reader = make();
      let survived = 0;
      for (const depth of depths) {
        for (const valid of [true, false]) {
          const nest = '['.repeat(depth) + ']'.repeat(valid ? depth : depth - 1);
          const method = side === 'client' ? 'session/update' : 'session/cancel';
          reader.channel.feedText(
            `{"jsonrpc":"2.0","method":"${method}","params":{"sessionId":"deep","_meta":{"deep":${nest}}}}\n`,
          );
          reader.channel.feedText(
            `{"jsonrpc":"2.0","id":"deep-${depth}-${valid}","method":"${method}","params":{"sessionId":"deep","_meta":{"deep":${nest}}}}\n`,
          );
          await assertReaderAlive(reader, `live-${depth}-${valid}`);
        }
        survived = depth;
      }
      figure({
        case: 'A8',
        name: `${side} reader: max depth survived (valid and invalid frames)`,
        value: survived,
        target: '1,000,000',
        pass: survived === 1_000_000,
      });
      await reader.close();
    }, 60_000);
  }
});

describe('A9 prototype pollution keys', () => {
  it('no reader pollutes Object.prototype', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const payloads = [
      '{"__proto__":{"polluted":"yes"}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"_meta":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}',
    ];
    for (const make of [clientReader, () => demoAgentReader(watch.logger('demo agent'))]) {
      const reader = make();
      for (const payload of payloads) {
        const params =
          payload.slice(0, -1) +
          ',"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x","rawInput":' +
          payload +
          ',"_meta":' +
          payload +
          '}}';
        for (const method of [
          'session/update',
          'session/new',
          'session/prompt',
          'initialize',
          'session/set_config_option',
        ]) {
          reader.channel.feedText(`{"jsonrpc":"2.0","method":"${method}","params":${params}}\n`);
          reader.channel.feedText(
            `{"jsonrpc":"2.0","id":"p-${method}","method":"${method}","params":${params}}\n`,
          );
        }
      }
      await assertReaderAlive(reader, 'after-a9');
      await reader.close();
    }
    const polluted =
      ({} as Record<string, unknown>).polluted !== undefined ||
      Object.getOwnPropertyNames(Object.prototype).sort().join() !== before.join();
    figure({
      case: 'A9',
      name: 'Object.prototype polluted',
      value: polluted,
      target: 'false',
      pass: !polluted,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
  });
});

describe('A10 extreme ids', () => {
  /** The raw text of the reply's id (before any number parsing). */
  const rawId = (line: string): string | undefined =>
    /"id":(-?[\d.eE+-]+|null|"(?:[^"\\]|\\.)*")/.exec(line)?.[1];
  const cases = ['9007199254740993', '1e308', '-0', `"${'i'.repeat(1024 * 1024)}"`];
  /** -0 and 0 are the same JSON integer. */
  const normal = (text: string | undefined): string | undefined => (text === '-0' ? '0' : text);
  for (const { side, make } of READERS) {
    it(`${side} reader: the reply echoes a numeric id exactly (digits as sent), a huge string id gets -32600`, async () => {
      const reader = make();
      const failures: string[] = [];
      for (const id of cases) {
        const before = reader.channel.lines.length;
        reader.channel.feedText(`{"jsonrpc":"2.0","id":${id},"method":"_battery/ext","params":{}}\n`);
        await eventually(() => reader.channel.lines.length > before, `reply to id ${id.slice(0, 20)}`);
        const line = reader.channel.lines[before] as string;
        const reply = JSON.parse(line) as Frame;
        expect(line.length).toBeLessThanOrEqual(1024);
        const code = (reply.error as Frame | undefined)?.code;
        const echoed = rawId(line);
        const exact = normal(echoed) === normal(id);
        // Only a string id too long to echo may be refused; a number is answered with its digits.
        const refused = id.startsWith('"') && code === -32600;
        if (!(exact || refused))
          failures.push(`${id.slice(0, 24)} → id ${String(echoed).slice(0, 24)}, code ${String(code)}`);
      }
      figure({
        case: 'A10',
        name: `${side} reader: ids not echoed exactly (numbers) nor refused (huge strings)`,
        value: failures.length,
        target: '0',
        pass: failures.length === 0,
      });
      expect(failures).toEqual([]);
      await assertReaderAlive(reader);
      await reader.close();
    });
  }
});

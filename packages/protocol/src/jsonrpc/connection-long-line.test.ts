/**
 * A long inbound line (1 MiB or more over several reads) is handed on without its text unless a
 * trace wants that text: what each kind of observer gets.
 */
import { describe, expect, it } from 'vitest';
import type { JsonRpcConnectionOptions } from './connection-types.js';
import type { ParsedLine } from './partial-line.js';
import { connectToRawPeer, deferred } from './test-support/raw-peer.js';

/** 2 MB of text in lines of 80 characters (escaped on the wire). */
const TEXT = `${'x'.repeat(79)}\n`.repeat(25_000);
const LINE = JSON.stringify({ jsonrpc: '2.0', method: 'big', params: { text: TEXT } });

/** A started connection that got the long notification; what its hooks saw. */
async function receive(options: JsonRpcConnectionOptions) {
  const { connection, peer } = connectToRawPeer(options);
  const got = deferred<unknown>();
  connection.onNotification('big', (params) => got.resolve(params));
  connection.start();
  // In reads of 64 KiB, as a pipe gives it.
  for (let at = 0; at < LINE.length; at += 65_536) peer.sendRaw(LINE.slice(at, at + 65_536));
  peer.sendRaw('\n');
  const params = (await got.promise) as { text?: string };
  await connection.close();
  return params;
}

describe('a long inbound line', () => {
  it('reaches its handler parsed, with no trace at all', async () => {
    const params = await receive({});
    expect(params.text === TEXT).toBe(true);
  });

  it("gives a trace without traceParsedLine the line's exact text", async () => {
    const traced: { text: string; parsed: unknown }[] = [];
    const params = await receive({ trace: (_direction, text, parsed) => traced.push({ text, parsed }) });
    expect(params.text === TEXT).toBe(true);
    expect(traced.filter((t) => t.text.length > 1000).map((t) => t.text === LINE)).toEqual([true]);
  });

  it('goes to traceParsedLine instead of trace, with its value, length and outline', async () => {
    const traced: string[] = [];
    const lines: ParsedLine[] = [];
    const params = await receive({
      trace: (_direction, text) => traced.push(text),
      traceParsedLine: (_direction, line) => lines.push(line),
    });
    expect(params.text === TEXT).toBe(true);
    expect(traced.every((text) => text.length < 1000)).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBe(LINE.length);
    expect((lines[0]?.value as { params?: unknown }).params === params).toBe(true);
    expect(lines[0]?.outline.startsWith('{"jsonrpc":"2.0","method":"big","params":{"text":"')).toBe(true);
  });

  it('answers a long request whose id is too large for a number with the digits it was sent', async () => {
    const { connection, peer } = connectToRawPeer({});
    connection.onRequest('big', (params) => (params as { text: string }).text.length);
    connection.start();
    const id = '123456789012345678901234567890';
    const line = `{"jsonrpc":"2.0","id":${id},"method":"big","params":{"text":${JSON.stringify(TEXT)}}}`;
    for (let at = 0; at < line.length; at += 65_536) peer.sendRaw(line.slice(at, at + 65_536));
    peer.sendRaw('\n');
    await peer.waitForFrames(1);
    expect(peer.lines[0]).toBe(`{"jsonrpc":"2.0","id":${id},"result":${TEXT.length}}`);
    await connection.close();
  });

  it('answers a long line it cannot parse with -32700, as a short one, and stays usable', async () => {
    const { connection, peer } = connectToRawPeer({});
    connection.onRequest('echo', (params) => params);
    connection.start();
    // A malformed escape after 2 MB of text with escapes: found after the pieces before it went.
    const line = `{"jsonrpc":"2.0","method":"big","params":{"text":${JSON.stringify(TEXT).slice(0, -1)}\\x"}}`;
    for (let at = 0; at < line.length; at += 65_536) peer.sendRaw(line.slice(at, at + 65_536));
    peer.sendRaw('\n');
    const replies = await peer.exchange({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['ok'] });
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: 1, result: ['ok'] },
    ]);
    await connection.close();
  });
});

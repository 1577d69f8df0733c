/**
 * B1–B4. JSON-RPC envelopes, against both readers and the real agent: batches, envelope
 * violations, unknown methods, and requests before initialize (the agent's gate; the client never
 * sends one). B5–B8 are in b-semantics.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fileWatch, safeJson } from './support/canary.js';
import { figure, holds, zero } from './support/figures.js';
import { LinePeer } from './support/line-peer.js';
import { exitOf, makeHome, spawnDemoAgent, within } from './support/procs.js';
import { READERS, demoAgentReader, errorCode as code, exchange } from './support/readers.js';
import { batteryClient, readStatus, relayEntry, statusFile } from './support/relay.js';

const watch = fileWatch('b-envelope');

const ALL_READERS = [
  ...READERS,
  { side: 'demo agent' as const, make: () => demoAgentReader(watch.logger('demo agent')) },
];

describe('B1 batches', () => {
  for (const { side, make } of ALL_READERS) {
    it(`${side} reader: [], a batch of requests, a batch of notifications: one -32600 each, nothing processed`, async () => {
      const reader = make();
      const request = (id: number) => ({
        jsonrpc: '2.0',
        id,
        method: 'session/cancel',
        params: { sessionId: 's' },
      });
      const note = { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: {} } };
      const out = await exchange(reader, [
        '[]',
        JSON.stringify([request(1), request(2)]),
        JSON.stringify([note, note]),
      ]);
      const ok = out.length === 3 && out.every((f) => code(f) === -32600 && f.id === null);
      holds(
        { case: 'B1', name: `${side} reader: one -32600 (id null) per batch, no entry processed` },
        ok && reader.handled.length === 0 && reader.received.length === 0,
      );
      expect(out.map((f) => [f.id, code(f)])).toEqual([
        [null, -32600],
        [null, -32600],
        [null, -32600],
      ]);
      expect(reader.handled).toEqual([]);
      expect(reader.received).toEqual([]);
      await reader.close();
    });
  }
});

describe('B2 envelope violations', () => {
  for (const { side, make } of ALL_READERS) {
    it(`${side} reader: -32600, the data never echoes the frame (a 10 MiB bad frame gets a reply ≤ 1 KiB)`, async () => {
      const reader = make();
      const canary = watch.contentCanary();
      const big = 'x'.repeat(10 * 1024 * 1024);
      const frames = [
        { id: 1, method: 'session/new', params: { cwd: canary } },
        { jsonrpc: '1.0', id: 2, method: 'session/new', params: { cwd: canary } },
        { jsonrpc: '2.0', id: {}, method: 'session/new', params: { cwd: canary } },
        { jsonrpc: '2.0', id: 4, method: 7, params: { cwd: canary } },
        { jsonrpc: '1.0', id: 5, method: 'session/new', params: { cwd: canary, big } },
      ];
      const out = await exchange(
        reader,
        frames.map((f) => JSON.stringify(f)),
      );
      const largest = Math.max(...reader.channel.lines.map((l) => l.length));
      const echoes = reader.channel.lines.filter((l) => l.includes(canary)).length;
      figure({
        case: 'B2',
        name: `${side} reader: largest reply to a bad frame (10 MiB frame included)`,
        value: largest,
        unit: 'bytes',
        target: '≤ 1,024 bytes',
        pass: largest <= 1024,
      });
      zero({ case: 'J2', name: `${side} reader: replies to bad envelopes echoing the canary` }, echoes);
      expect(out.map(code)).toEqual([-32600, -32600, -32600, -32600, -32600]);
      for (const [i, f] of out.entries()) {
        const sent = frames[i]?.id;
        expect([null, typeof sent === 'number' ? sent : null]).toContainEqual(f.id);
      }
      expect(largest).toBeLessThanOrEqual(1024);
      expect(echoes).toBe(0);
      expect(reader.handled).toEqual([]);
      await reader.close();
    });
  }
});

describe('B3 unknown methods', () => {
  for (const { side, make } of ALL_READERS) {
    it(`${side} reader: unknown request → -32601 with its id; unknown and $/ notifications → no reply`, async () => {
      const reader = make();
      const out = await exchange(reader, [
        JSON.stringify({ jsonrpc: '2.0', id: 'u1', method: 'no/such_method', params: {} }),
        JSON.stringify({ jsonrpc: '2.0', method: 'no/such_notification', params: {} }),
        JSON.stringify({ jsonrpc: '2.0', method: '$/no_such_thing', params: {} }),
        JSON.stringify({ jsonrpc: '2.0', method: '_vendor/notification', params: {} }),
      ]);
      holds(
        { case: 'B3', name: `${side} reader: -32601 for the request, silence for the notifications` },
        out.length === 1 && code(out[0]) === -32601 && out[0]?.id === 'u1',
      );
      expect(out).toHaveLength(1);
      expect(out[0]?.id).toBe('u1');
      expect(code(out[0])).toBe(-32601);
      await reader.close();
    });
  }
});

describe('B4 requests before initialize', () => {
  it('agent (acp agent --demo): session/new before initialize is refused with -32600, or queued until initialize', async () => {
    const home = makeHome('b4-agent');
    const child = spawnDemoAgent(home);
    const peer = new LinePeer(child);
    try {
      const early = peer.request('early', 'session/new', { cwd: home.work, mcpServers: [] });
      // A gate answers at once; a queue answers only after initialize: wait a bounded moment for either.
      const first = await within(early, 15_000, 'an answer to session/new before initialize').catch(
        () => undefined,
      );
      const init = await within(
        peer.request('init', 'initialize', { protocolVersion: 1, clientCapabilities: {} }),
        30_000,
        'initialize',
      );
      const queued = first === undefined ? await within(early, 15_000, 'the queued session/new') : undefined;
      const gated = first !== undefined && code(first) === -32600;
      const ok = gated || (queued !== undefined && queued.result !== undefined);
      holds({ case: 'B4', name: 'agent: session/new before initialize refused (-32600) or queued' }, ok);
      expect(init.result).toBeDefined();
      expect(ok, `answer before initialize: ${safeJson(first).slice(0, 300)}`).toBe(true);
      child.stdin?.end();
      await exitOf(child, 20_000);
    } finally {
      child.kill('SIGKILL');
      home.cleanup();
    }
  }, 60_000);

  it('client engine: nothing but initialize is sent before the agent answered it', async () => {
    const battery = await batteryClient({ watch });
    const status = statusFile(battery.home);
    try {
      const agent = await battery.client.connect(
        relayEntry({ status, recordMethods: true, initDelayMs: 300 }),
      );
      const session = await agent.newSession({ cwd: battery.home.work });
      await session.prompt('hello');
      const early = readStatus(status).filter(
        (r) => r.event === 'received' && r.initialized === false && r.method !== 'initialize',
      );
      zero({ case: 'B4', name: 'client: requests sent before initialize was answered' }, early.length);
      expect(early).toEqual([]);
    } finally {
      await battery.close();
    }
  });
});

/**
 * A through the whole client engine and agent, over real pipes: A6 a truncated last frame when
 * the agent dies mid-write, A7 bad text kept and recorded, A8 deeply nested data kept or reported
 * (never dropped silently) by the client's store, records and `acp run --format json`, and by the
 * agent's session log (`session/load` replays every turn).
 */
import { stringifyJson, type AgentConnection } from '@acp-kit/client';
import { describe, expect, it } from 'vitest';
import { fileWatch } from './support/canary.js';
import { holds, zero } from './support/figures.js';
import { LinePeer, type Frame } from './support/line-peer.js';
import { Collected, exitOf, makeHome, spawnAcp, spawnDemoAgent, within } from './support/procs.js';
import { batteryClient, relayCommand, relayEntry, script } from './support/relay.js';
import { recordedEvents } from './support/transcript.js';

const watch = fileWatch('a-engine');

const DEPTHS = [5_000, 100_000, 1_000_000];

/** Runs `run` with a client engine connected to the relay agent; `seen.diagnostics` collects what the engine reported. */
async function withRelay<T>(
  run: (agent: AgentConnection, dataDir: string, seen: { diagnostics: string[] }) => Promise<T>,
): Promise<T> {
  const battery = await batteryClient({ watch });
  const seen = { diagnostics: [] as string[] };
  try {
    const agent = await battery.client.connect(relayEntry());
    agent.events.on('diagnostic', ({ message }) => seen.diagnostics.push(message));
    return await run(agent, battery.home.data, seen);
  } finally {
    await battery.close();
  }
}

describe('A6 a truncated last frame when the agent dies mid-write', () => {
  for (const death of [{ exit: 1 }, { kill: 'SIGKILL' }]) {
    const how = 'exit' in death ? 'exit code 1' : 'SIGKILL';
    it(`${how}: the pending prompt fails with "agent exited" and "truncated frame", never "write EPIPE"`, async () => {
      await withRelay(async (agent) => {
        const session = await agent.newSession({ cwd: process.cwd() });
        const error = await session
          .prompt(
            script([
              { text: 'before' },
              { raw: '{"jsonrpc":"2.0","method":"session/update","params":{"sessi' },
              death,
            ]),
          )
          .then(
            () => undefined,
            (e: unknown) => e as Error,
          );
        watch.seeError('A6 prompt error', error);
        const message = error?.message ?? '';
        const ok = /exit|killed/i.test(message) && /truncat/i.test(message) && !/EPIPE/.test(message);
        holds({ case: 'A6', name: `${how}: error says the agent exited and the frame was truncated` }, ok);
        expect(error).toBeInstanceOf(Error);
        expect(message).toMatch('exit' in death ? /exit.*\b1\b|code 1/i : /SIGKILL/);
        expect(message).not.toMatch(/EPIPE/);
        expect(message).toMatch(/truncat/i);
        expect(session.state.items.some((item) => JSON.stringify(item).includes('before'))).toBe(true);
      });
    });
  }
});

describe('A7 bad text through the client engine', () => {
  it('invalid UTF-8 and lone surrogates are kept (U+FFFD), recorded, and the session goes on', async () => {
    await withRelay(async (agent, dataDir) => {
      const session = await agent.newSession({ cwd: process.cwd() });
      const bad = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"'),
        Buffer.from(session.agentSessionId ?? ''),
        Buffer.from(
          '","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"bad ',
        ),
        Buffer.from([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
        Buffer.from(' \\ud800 lone \\u0000 nul \u2028 sep"}}}}\n'),
      ]).toString('base64');
      const first = await session.prompt(script([{ rawBytes: bad }, { text: ' after' }]));
      const second = await session.prompt(script([{ text: 'next turn' }]));
      await session.close();
      const text = JSON.stringify(session.state.items);
      const events = recordedEvents(dataDir, session.localId);
      const recorded = JSON.stringify(events);
      const ok =
        first.stopReason === 'end_turn' && second.stopReason === 'end_turn' && recorded.includes('next turn');
      holds({ case: 'A7', name: 'client engine: bad text kept, recorded, session usable' }, ok);
      expect(first.stopReason).toBe('end_turn');
      expect(second.stopReason).toBe('end_turn');
      expect(text).toContain('\ufffd');
      expect(text).toContain('after');
      expect(recorded).toContain('bad ');
      expect(recorded).toContain('next turn');
    });
  });
});

describe('A8 deep nesting through the client engine and the agent', () => {
  it('client engine: every deep update is kept in the store and events.jsonl, or reported — never dropped silently', async () => {
    await withRelay(async (agent, dataDir, seen) => {
      const session = await agent.newSession({ cwd: process.cwd() });
      const steps = DEPTHS.map((depth) => ({ deep: { depth } }));
      const turn = await session.prompt(script([...steps, { text: 'after-deep' }]));
      const next = await session.prompt(script([{ text: 'alive' }]));
      await session.close();
      // JSON.stringify throws from about 5,000 levels; the engine's own serialiser does not.
      const stored = stringifyJson(session.state.items);
      const recorded = stringifyJson(recordedEvents(dataDir, session.localId));
      const where = DEPTHS.map((depth) => ({
        depth,
        store: stored.includes(`deep-${depth};`),
        events: recorded.includes(`deep-${depth};`),
      }));
      const silent = where
        .filter((w) => !(w.store && w.events) && seen.diagnostics.length === 0)
        .map((w) => w.depth);
      zero(
        { case: 'A8', name: 'client engine: deep updates dropped silently (5k/100k/1M levels)' },
        silent.length,
      );
      expect(turn.stopReason).toBe('end_turn');
      expect(next.stopReason).toBe('end_turn');
      expect(silent, `dropped without a word: ${JSON.stringify(where)}`).toEqual([]);
    });
  }, 60_000);

  it('acp run --format json: every deep update is printed, or a warning says it was not', async () => {
    const home = makeHome('a8-run');
    try {
      const steps = DEPTHS.map((depth) => ({ deep: { depth } }));
      const child = spawnAcp(
        ['run', '--format', 'json', script([...steps, { text: 'after-deep' }]), '--', ...relayCommand()],
        {
          cwd: home.work,
          env: home.env,
        },
      );
      const stdout = new Collected(child.stdout, 64 * 1024 * 1024);
      const stderr = new Collected(child.stderr);
      const exit = await exitOf(child, 60_000);
      watch.see('acp run stderr (A8)', stderr.text);
      const lines = stdout.text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          try {
            return JSON.parse(line) as Frame;
          } catch {
            return { type: 'unparseable', line: line.slice(0, 100) } as Frame;
          }
        });
      const warnings = lines.filter((l) => l.type === 'warning' || l.type === 'diagnostic').length;
      const silent = DEPTHS.filter((depth) => !stdout.text.includes(`deep-${depth};`) && warnings === 0);
      zero({ case: 'A8', name: 'acp run --format json: deep updates dropped silently' }, silent.length);
      expect(exit.code, stderr.text.slice(-1000)).toBe(0);
      expect(lines.filter((l) => l.type === 'unparseable')).toEqual([]);
      expect(stdout.text).toContain('after-deep');
      expect(silent, `dropped without a word: ${silent.join(', ')}`).toEqual([]);
    } finally {
      home.cleanup();
    }
  }, 60_000);

  it('agent: a deep prompt is kept in the session log (session/load replays every turn) or refused', async () => {
    const home = makeHome('a8-agent');
    const prompts = ['read one.txt', 'read two.txt', 'read three.txt'];
    try {
      const first = spawnDemoAgent(home);
      const stderr = new Collected(first.stderr);
      const peer = new LinePeer(first);
      await within(
        peer.request('i', 'initialize', { protocolVersion: 1, clientCapabilities: {} }),
        60_000,
        'initialize',
      );
      const created = await within(
        peer.request('n', 'session/new', { cwd: home.work, mcpServers: [] }),
        30_000,
        'session/new',
      );
      const sessionId = (created.result as { sessionId: string }).sessionId;
      const refused: boolean[] = [];
      for (const [i, text] of prompts.entries()) {
        // Written by hand: JSON.stringify itself cannot serialise 6,000 levels.
        const meta = i === 1 ? `,"_meta":{"deep":${'['.repeat(6_000)}${']'.repeat(6_000)}}` : '';
        const frame = `{"jsonrpc":"2.0","id":"p${i}","method":"session/prompt","params":{"sessionId":${JSON.stringify(sessionId)},"prompt":[{"type":"text","text":${JSON.stringify(text)}${meta}}]}}`;
        const reply = await within(peer.requestText(`p${i}`, frame), 60_000, `prompt ${i}`);
        refused.push(reply.error !== undefined);
      }
      first.stdin?.end();
      await exitOf(first, 30_000);
      watch.see('demo agent stderr (A8)', stderr.text);

      const second = spawnDemoAgent(home);
      const replayed: string[] = [];
      const loader = new LinePeer(second, (_line, frame) => {
        const update = (
          frame.params as { update?: { sessionUpdate?: string; content?: { text?: string } } } | undefined
        )?.update;
        if (frame.method === 'session/update' && update?.sessionUpdate === 'user_message_chunk')
          replayed.push(update.content?.text ?? '');
        return false;
      });
      await within(
        loader.request('i', 'initialize', { protocolVersion: 1, clientCapabilities: {} }),
        60_000,
        'initialize',
      );
      const loaded = await within(
        loader.request('l', 'session/load', { sessionId, cwd: home.work, mcpServers: [] }),
        30_000,
        'session/load',
      );
      second.stdin?.end();
      await exitOf(second, 30_000);
      const lost = prompts.filter((text, i) => !refused[i] && !replayed.some((r) => r.includes(text)));
      zero(
        { case: 'A8', name: 'agent: prompts lost from the session log (one nested 6,000 levels)' },
        lost.length,
      );
      expect(loaded.error).toBeUndefined();
      expect(lost, `replayed: ${JSON.stringify(replayed)}`).toEqual([]);
    } finally {
      home.cleanup();
    }
  }, 120_000);
});

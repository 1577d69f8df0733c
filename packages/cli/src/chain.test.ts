/**
 * `acp chain` end to end, over real processes: the official SDK's client drives a full demo turn
 * through `acp chain --trace FILE -- acp agent --demo`, and the trace file holds every message the
 * client exchanged with the chain; our own headless client (`acp run`) does the same turn.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { parseTraceLine, redactValue, type TraceFrame } from '@acp-kit/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SELF, jsonLines, runCli, spawnCli, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
});
afterEach(async () => {
  await home.cleanup();
});

const demoAgent = [SELF.command, ...SELF.args, 'agent', '--demo'];

/** A copy of one NDJSON direction of a stream, as parsed frames. */
function tap(frames: Record<string, unknown>[]) {
  let rest = '';
  return (chunk: Buffer | string) => {
    rest += chunk.toString();
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) frames.push(JSON.parse(line) as Record<string, unknown>);
  };
}

/** A frame without what each hop numbers on its own: `id` (and `requestId` of a cancel). */
function withoutIds(frame: unknown): unknown {
  const { id: _id, jsonrpc: _version, ...rest } = frame as Record<string, unknown>;
  return redactValue(rest);
}

/** Spawns `acp ARGS` (a chain) and runs a demo tour in it with the official SDK's client. */
async function sdkTour(args: string[]) {
  const child = spawnCli(args, home, 'pipe');
  const stdin = child.stdin as Writable;
  const sent: Record<string, unknown>[] = [];
  const received: Record<string, unknown>[] = [];
  child.stdout.on('data', tap(received));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const input = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      tap(sent)(chunk);
      stdin.write(chunk, callback);
    },
  });
  const stream = acp.ndJsonStream(
    Writable.toWeb(input) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const kinds: string[] = [];
  const asked: string[] = [];
  const app = acp
    .client({ name: 'official-sdk-chain-test' })
    .onNotification('session/update', ({ params }) => {
      kinds.push(params.update.sessionUpdate);
    })
    .onRequest('session/request_permission', ({ params }) => {
      asked.push(params.toolCall.kind ?? 'other');
      const option = params.options.find((o) => o.kind === 'allow_once');
      return { outcome: { outcome: 'selected', optionId: option?.optionId ?? '' } };
    });
  const result = await app.connectWith(stream, async (agent) => {
    const init = await agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: 'official-sdk-chain-test', version: '1.0.0' },
    });
    const created = await agent.request('session/new', { cwd: home.work, mcpServers: [] });
    const prompt = await agent.request('session/prompt', {
      sessionId: created.sessionId,
      prompt: [{ type: 'text', text: 'Tour please' }],
    });
    return { init, prompt };
  });
  stdin.end();
  return { ...result, code: await exited, stderr, sent, received, kinds, asked };
}

describe('acp chain', () => {
  it('runs a full demo turn for the official SDK client through the trace proxy, which records every frame', async () => {
    const tracePath = join(home.dir, 'chain-trace.jsonl');
    const { code, stderr, sent, received, kinds, asked, ...result } = await sdkTour([
      'chain',
      '--trace',
      tracePath,
      '--',
      ...demoAgent,
    ]);
    expect(code, stderr).toBe(0);
    expect(asked).toEqual(['edit', 'execute']);

    expect(result.init.agentInfo?.name).toBe('acp-kit-agent');
    expect(result.prompt.stopReason).toBe('end_turn');
    expect(kinds).toContain('tool_call');
    expect(await readFile(join(home.work, 'ACP_DEMO.md'), 'utf8')).toContain('# acp-kit demo notes');

    // Every frame each way, in order, as the client saw it (ids are numbered per hop).
    const trace = (await readFile(tracePath, 'utf8'))
      .split('\n')
      .map(parseTraceLine)
      .filter((frame): frame is TraceFrame => frame !== undefined);
    const traced = (dir: 'in' | 'out') => trace.filter((f) => f.dir === dir).map((f) => withoutIds(f.frame));
    expect(sent.length).toBeGreaterThan(3);
    expect(traced('out')).toEqual(sent.map(withoutIds));
    expect(traced('in')).toEqual(received.map(withoutIds));
    const methods = trace.map((f) => (f.frame as { method?: string }).method).filter(Boolean);
    expect(methods).toEqual(
      expect.arrayContaining(['initialize', 'session/new', 'session/prompt', 'session/request_permission']),
    );
  });

  it('--rules answers the questions a saved rule decides; the client gets the others', async () => {
    const rule = await runCli(['rules', 'add', '--allow', '--kind', 'edit'], home);
    expect(rule.code, rule.stderr).toBe(0);
    const { code, stderr, asked, prompt } = await sdkTour(['chain', '--rules', '--', ...demoAgent]);
    expect(code, stderr).toBe(0);
    expect(prompt.stopReason).toBe('end_turn');
    // The edit was allowed by the rule without asking; the command still reached the client.
    expect(asked).toEqual(['execute']);
    expect(stderr).toMatch(/acp proxy rules: permission answered by a saved rule \(edit: allow, rule r-/);
    expect(await readFile(join(home.work, 'ACP_DEMO.md'), 'utf8')).toContain('# acp-kit demo notes');
  });

  it('serves acp run (our client engine) through a chain, and fails clearly without an agent', async () => {
    const tracePath = join(home.dir, 'run-trace.jsonl');
    const run = await runCli(
      [
        'run',
        '--format',
        'json',
        '--approve',
        'all',
        'Tour please',
        '--',
        SELF.command,
        ...SELF.args,
        'chain',
        '--trace',
        tracePath,
        '--',
        ...demoAgent,
      ],
      home,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ stopReason: 'end_turn' });
    expect(await readFile(tracePath, 'utf8')).toContain('"method":"session/prompt"');

    const bare = await runCli(['chain'], home);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('acp chain needs an agent command after --');
  });
});

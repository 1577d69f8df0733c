/**
 * `acp run` gives the agent the MCP servers configured for `acp` (tui.json), as `acp` does: a
 * remote agent behind `acp serve` (`--url`) and a local `acp agent` both take MCP-over-ACP, so
 * the stdio server runs here, started by the client engine, and its tools are called over the
 * ACP connection. A real MCP SDK server; the model is a local stub.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_TEST_SERVER } from '../../agent/src/test-support/mcp-test-server.js';
import { jsonLines, runCli, testHome, type TestHome } from './test-support/cli-harness.js';
import { startOpenAIStub, type OpenAIStub } from './test-support/openai-stub.js';
import { startServe, type Served } from './test-support/serve-harness.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let home: TestHome | undefined;
let stub: OpenAIStub | undefined;
let served: Served | undefined;

afterEach(async () => {
  await served?.stop();
  await stub?.close();
  await home?.cleanup();
  served = stub = home = undefined;
});

/** A home whose tui.json configures one stdio MCP server (`local`) for every agent. */
async function homeWithMcpServer(): Promise<TestHome> {
  const h = await testHome();
  const configDir = h.env.ACP_KIT_CONFIG_DIR as string;
  await mkdir(configDir, { recursive: true });
  const local = {
    command: process.execPath,
    args: ['--conditions=@acp-kit/source', '--import', TSX, MCP_TEST_SERVER],
    env: { MCP_LABEL: 'client' },
  };
  await writeFile(join(configDir, 'tui.json'), JSON.stringify({ mcpServers: { local } }));
  return h;
}

const MODEL_ENV = (baseUrl: string) => ({
  ACP_KIT_BASE_URL: baseUrl,
  ACP_KIT_MODEL: 'stub-model',
  ACP_KIT_API_KEY: 'test-key-not-secret',
});

async function startStub(): Promise<OpenAIStub> {
  return startOpenAIStub([
    { tool: 'mcp__local__echo', args: { text: 'from far away' } },
    { tool: 'mcp__local__write_note', args: { name: 'note.txt', text: 'written on the client machine' } },
    { text: 'Done.' },
  ]);
}

/** The tool calls of a `--format json` run, as [title, status] at their last update. */
function toolCalls(stdout: string): string[][] {
  const calls = new Map<string, { title?: string; status?: string }>();
  for (const line of jsonLines(stdout)) {
    if (line.type !== 'update') continue;
    // The json event schema's tool call (docs/run-json.md): its fields are a patch.
    const update = line.update as {
      kind?: string;
      toolCallId?: string;
      patch?: { title?: string; status?: string };
    };
    if (update.kind !== 'tool_call' || typeof update.toolCallId !== 'string') continue;
    const call = calls.get(update.toolCallId) ?? {};
    if (update.patch?.title) call.title = update.patch.title;
    if (update.patch?.status) call.status = update.patch.status;
    calls.set(update.toolCallId, call);
  }
  return [...calls.values()].map((call) => [call.title ?? '', call.status ?? '']);
}

interface Frame {
  dir: string;
  frame: { id?: unknown; method?: unknown; params?: unknown; result?: unknown };
}

/**
 * What the agent was told on the wire, from the trace `acp run` recorded: the ACP version it
 * answered and the `mcpServers` of its `session/new`.
 */
async function declared(h: TestHome): Promise<{ version: unknown; mcpServers: unknown }> {
  const sessions = join(h.env.ACP_KIT_DATA_DIR as string, 'client', 'sessions');
  const [id] = await readdir(sessions);
  const text = await readFile(join(sessions, id as string, 'trace.jsonl'), 'utf8');
  const frames = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Frame);
  const answer = frames.find((f) => f.dir === 'in' && f.frame.id === 1)?.frame.result;
  const opened = frames.find((f) => f.dir === 'out' && f.frame.method === 'session/new')?.frame.params;
  return {
    version: (answer as { protocolVersion?: unknown } | undefined)?.protocolVersion,
    mcpServers: (opened as { mcpServers?: unknown } | undefined)?.mcpServers,
  };
}

/** The one `local` server, declared as served over the ACP connection (not as a stdio command). */
const ACP_DECLARATION = [{ type: 'acp', name: 'local', serverId: expect.any(String) as unknown }];

describe('acp run with MCP servers configured for acp', () => {
  it.each([
    ['v2', [], 2],
    ['v1', ['--protocol', '1'], 1],
  ] as const)(
    '--url (%s): the remote agent behind acp serve calls the tools of a server that runs only here',
    async (_name, protocol, version) => {
      home = await homeWithMcpServer();
      stub = await startStub();
      served = await startServe(home, ['--agent', 'acp-kit'], MODEL_ENV(stub.baseUrl));
      const run = await runCli(
        [
          'run',
          '--url',
          served.url,
          ...protocol,
          '--approve',
          'all',
          '--format',
          'json',
          'use the local tools',
        ],
        home,
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(toolCalls(run.stdout)).toEqual([
        ['local: Echo', 'completed'],
        ['local: write_note', 'completed'],
      ]);
      expect(JSON.stringify(stub.requests[1]?.messages)).toContain('client echo: from far away');
      // The stdio server ran on this side, in the run's directory: the agent got no command to start.
      expect(await readFile(join(home.work, 'note.txt'), 'utf8')).toBe('written on the client machine');
      expect(await declared(home)).toEqual({ version, mcpServers: ACP_DECLARATION });
    },
  );

  it('a local acp agent gets the same servers, over ACP (v2)', async () => {
    home = await homeWithMcpServer();
    stub = await startStub();
    Object.assign(home.env, MODEL_ENV(stub.baseUrl));
    const run = await runCli(
      ['run', '--agent', 'acp-kit', '--approve', 'all', '--format', 'json', 'use the local tools'],
      home,
    );
    expect(run.code).toBe(0);
    expect(toolCalls(run.stdout)).toEqual([
      ['local: Echo', 'completed'],
      ['local: write_note', 'completed'],
    ]);
    expect(await readFile(join(home.work, 'note.txt'), 'utf8')).toBe('written on the client machine');
    expect(await declared(home)).toEqual({ version: 2, mcpServers: ACP_DECLARATION });
  });

  it('acp run --session: the reattached session gets the servers again (the agent keeps none across runs)', async () => {
    home = await homeWithMcpServer();
    stub = await startOpenAIStub([
      { text: 'Hello.' },
      { tool: 'mcp__local__write_note', args: { name: 'again.txt', text: 'second run' } },
      { text: 'Done.' },
    ]);
    Object.assign(home.env, MODEL_ENV(stub.baseUrl));
    const args = ['run', '--agent', 'acp-kit', '--approve', 'all', '--format', 'json'];
    const first = await runCli([...args, 'hello'], home);
    expect(first.code).toBe(0);
    const opened = jsonLines(first.stdout).find((line) => line.type === 'session');
    const second = await runCli([...args, '--session', String(opened?.localId), 'write it again'], home);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(jsonLines(second.stdout).find((line) => line.type === 'session')?.how).toBe('resume');
    expect(toolCalls(second.stdout)).toEqual([['local: write_note', 'completed']]);
    expect(await readFile(join(home.work, 'again.txt'), 'utf8')).toBe('second run');
  });
});

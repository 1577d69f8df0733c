/**
 * Records what real ACP adapters send — every `session/update` (and the tool call of each
 * `session/request_permission`) of one scripted turn — through acp-kit's client engine, with a
 * local stub in place of the model API. The recordings are the fixtures of the UI's agent
 * fidelity tests (`test/fixtures/agent-frames/`).
 *
 *   node --conditions=@acp-kit/source --import tsx scripts/record-agent-frames.ts claude|codex|codex016|gemini
 *
 * The adapters are looked up in `ACP_AGENTS_BIN` (default `/tmp/agents/bin`:
 * `npm i -g --prefix /tmp/agents @agentclientprotocol/codex-acp @agentclientprotocol/claude-agent-acp @google/gemini-cli`)
 * and, for `codex016`, `/tmp/agents-old/bin` (`npm i -g --prefix /tmp/agents-old @zed-industries/codex-acp@0.16.0`).
 * The workspace's path is written as `$WS`; it holds `notes.txt` ("line one\nline two\nline
 * three\n") and `README.md`.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentConnection, PermissionPolicy, type SessionEvent } from '@acp-kit/client';
import { REPO_ROOT } from '../packages/tui/src/e2e/tmux-harness.js';
import { anthropicStub, geminiStub, responsesStub, type Step, type Stub } from './agent-frames-stubs.js';

/** What the workspace holds when an adapter starts. */
export const WORKSPACE_FILES = { 'notes.txt': 'line one\nline two\nline three\n', 'README.md': '# Sample\n' };

interface Recording {
  readonly file: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly prompt: string;
  readonly stub: Stub;
}

const BIN = process.env.ACP_AGENTS_BIN ?? '/tmp/agents/bin';

async function claude(ws: string, home: string): Promise<Recording> {
  const notes = join(ws, 'notes.txt');
  const todos = (done: number) =>
    ['Read notes.txt', 'Edit line two', 'List the files'].map((content, i) => ({
      content,
      status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      activeForm: content,
    }));
  const script: Step[] = [
    { tool: 'TodoWrite', id: 'toolu_01', input: { todos: todos(0) } },
    { tool: 'Read', id: 'toolu_02', input: { file_path: notes } },
    {
      tool: 'Edit',
      id: 'toolu_03',
      input: { file_path: notes, old_string: 'line two', new_string: 'line 2 (edited)' },
    },
    { tool: 'Bash', id: 'toolu_04', input: { command: 'ls', description: 'List the files' } },
    { tool: 'TodoWrite', id: 'toolu_05', input: { todos: todos(3) } },
    { text: 'Done: line 2 of notes.txt is edited.' },
  ];
  const stub = await anthropicStub(script);
  return {
    file: 'claude-agent-acp-0.49.0.jsonl',
    command: join(BIN, 'claude-agent-acp'),
    args: [],
    env: {
      ANTHROPIC_BASE_URL: stub.url,
      ANTHROPIC_API_KEY: 'sk-ant-stub',
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      // Claude Code refuses to skip its permission checks as root outside a sandbox.
      IS_SANDBOX: '1',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    prompt: 'Change line two of notes.txt, then list the files; track it in todos.',
    stub,
  };
}

async function codex(ws: string, home: string, old: boolean): Promise<Recording> {
  const notes = join(ws, 'notes.txt');
  const plan = (done: number): Step => ({
    tool: 'update_plan',
    id: `call_plan${done}`,
    input: {
      plan: ['List the files', 'Edit line two'].map((step, i) => ({
        step,
        status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      })),
    },
  });
  const script: Step[] = [
    // codex-acp 2.x does not offer Codex's update_plan tool to the model.
    ...(old ? [plan(0)] : []),
    { tool: 'exec_command', id: 'call_ls', input: { cmd: 'ls', workdir: ws } },
    { tool: 'exec_command', id: 'call_cat', input: { cmd: 'cat notes.txt', workdir: ws } },
    {
      tool: 'exec_command',
      id: 'call_echo',
      input: { cmd: 'echo hello from codex && wc -l notes.txt', workdir: ws },
    },
    {
      tool: 'apply_patch',
      id: 'call_patch',
      input: {},
      custom: `*** Begin Patch\n*** Update File: ${notes}\n@@\n line one\n-line two\n+line 2 (edited)\n line three\n*** End Patch\n`,
    },
    ...(old ? [plan(2)] : []),
    { text: 'Done.' },
  ];
  const stub = await responsesStub(script);
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "stub"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      '[model_providers.stub]',
      'name = "stub"',
      `base_url = "${stub.url}/v1"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
  return {
    file: old ? 'codex-acp-0.16.0.jsonl' : 'codex-acp-2.6.0.jsonl',
    command: old ? '/tmp/agents-old/bin/codex-acp' : join(BIN, 'codex-acp'),
    args: [],
    env: { CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-stub' },
    prompt: 'List the files, show notes.txt and change line two.',
    stub,
  };
}

async function gemini(ws: string): Promise<Recording> {
  const notes = join(ws, 'notes.txt');
  const script: Step[] = [
    {
      tool: 'write_todos',
      id: 'g1',
      input: {
        todos: [
          { description: 'Read notes.txt', status: 'in_progress' },
          { description: 'Edit line two', status: 'pending' },
        ],
      },
    },
    { tool: 'read_file', id: 'g2', input: { file_path: notes } },
    {
      tool: 'replace',
      id: 'g3',
      input: { file_path: notes, old_string: 'line two', new_string: 'line 2 (edited)', instruction: 'edit' },
    },
    { tool: 'run_shell_command', id: 'g4', input: { command: 'ls', description: 'List the files' } },
    { text: 'Done.' },
  ];
  const stub = await geminiStub(script);
  return {
    file: 'gemini-cli-0.61.0.jsonl',
    command: join(BIN, 'gemini'),
    // write_todos is offered with Gemini 2 models only.
    args: ['--acp', '--model', 'gemini-2.5-flash'],
    env: { GEMINI_API_KEY: 'stub-key', GOOGLE_GEMINI_BASE_URL: stub.url, GEMINI_CLI_NO_RELAUNCH: 'true' },
    prompt: 'Edit line two of notes.txt and list the files; keep todos.',
    stub,
  };
}

async function main(which: string): Promise<void> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'acp-frames-ws-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'acp-frames-home-')));
  for (const [name, text] of Object.entries(WORKSPACE_FILES)) writeFileSync(join(ws, name), text);
  const recording =
    which === 'claude'
      ? await claude(ws, home)
      : which === 'codex' || which === 'codex016'
        ? await codex(ws, home, which === 'codex016')
        : await gemini(ws);
  const lines: string[] = [];
  const keep = (value: unknown): void => {
    lines.push(JSON.stringify(value).split(ws).join('$WS'));
  };
  const env = { PATH: process.env.PATH ?? '', HOME: home, TERM: 'dumb', ...recording.env };
  const connection = await AgentConnection.start({
    agent: {
      id: which,
      name: which,
      source: 'user',
      command: recording.command,
      args: [...recording.args],
      cwd: ws,
      env,
      passEnv: ['*'],
    },
    policy: new PermissionPolicy({ mode: 'all' }),
    env: { ...process.env, ...env },
    host: { askPermission: () => Promise.resolve({ decision: 'allow' }) },
  });
  const info = connection.initializeResponse.agentInfo;
  keep({ initialize: { agentInfo: info } });
  connection.events.on('update', (params) => keep(params));
  try {
    const session = await connection.newSession({ cwd: ws });
    session.store.onEvent((event: SessionEvent) => {
      if (event.type === 'permission_requested' && event.toolCall)
        keep({ requestPermission: { toolCall: event.toolCall } });
    });
    keep({ prompt: recording.prompt });
    const { stopReason } = await session.prompt(recording.prompt);
    keep({ turnEnd: stopReason });
  } finally {
    await connection.close(500);
    await recording.stub.close();
  }
  const out = join(REPO_ROOT, 'test/fixtures/agent-frames', recording.file);
  const header = [
    `# ${info?.title ?? which} ${info?.version ?? ''} (${info?.name ?? recording.command}), recorded by scripts/record-agent-frames.ts`,
    '# against a local model stub: {"initialize"} with its agentInfo, then one line per session/update params (the workspace is $WS),',
    '# {"requestPermission": {toolCall}} for permission requests, {"prompt"} and {"turnEnd"} around the turn.',
    ...(existingNotes(out) ?? []),
  ];
  writeFileSync(out, `${[...header, ...lines].join('\n')}\n`);
  appendFileSync(out, '');
  rmSync(ws, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  process.stdout.write(`${out}: ${lines.length} lines\n`);
}

/** Notes written by hand under the header of an earlier recording (`#: …` lines) are kept. */
function existingNotes(file: string): string[] | undefined {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#:'));
  } catch {
    return undefined;
  }
}

await main(process.argv[2] ?? 'claude');

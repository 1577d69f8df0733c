/**
 * Records what real ACP adapters send — every `session/update` (and the tool call of each
 * `session/request_permission`) of one scripted turn — through acp-kit's client engine, with a
 * local stub in place of the model API. The recordings are the fixtures of the UI's agent
 * fidelity tests (`test/fixtures/agent-frames/`).
 *
 *   node --conditions=@acp-kit/source --import tsx scripts/record-agent-frames.ts claude|claude-turns|codex|codex016|gemini|qwen|copilot
 *
 * The adapters are looked up in `ACP_AGENTS_BIN` (default `/tmp/agents/bin`:
 * `npm i -g --prefix /tmp/agents @agentclientprotocol/codex-acp @agentclientprotocol/claude-agent-acp @google/gemini-cli @qwen-code/qwen-code @github/copilot`)
 * and, for `codex016`, `/tmp/agents-old/bin` (`npm i -g --prefix /tmp/agents-old @zed-industries/codex-acp@0.16.0`).
 * A recording is one turn or several; a turn can be cancelled by the client when a given update
 * arrives (`{"cancel"}` marks the moment), and a turn the agent answers with an error ends with
 * `{"turnError": {code, message}}`.
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
import {
  AgentConnection,
  ClientError,
  PermissionPolicy,
  type ClientSession,
  type SessionEvent,
} from '@acp-kit/client';
import { ProtocolError, type SessionNotification } from '@acp-kit/protocol';
import { REPO_ROOT } from '../packages/tui/src/e2e/tmux-harness.js';
import {
  anthropicStub,
  chatStub,
  geminiStub,
  responsesStub,
  type ChatStep,
  type Step,
  type Stub,
} from './agent-frames-stubs.js';

/** What the workspace holds when an adapter starts. */
export const WORKSPACE_FILES = { 'notes.txt': 'line one\nline two\nline three\n', 'README.md': '# Sample\n' };

/** One prompt turn of a recording. */
interface Turn {
  readonly prompt: string;
  /**
   * The client cancels the turn (or kills the agent) when an update passes `on`, or (`model`)
   * once the model stub holds an answer open.
   */
  readonly interrupt?: {
    readonly on: ((params: SessionNotification) => boolean) | 'model';
    readonly by: 'cancel' | 'kill';
  };
}

interface Recording {
  readonly file: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly prompt: string | readonly Turn[];
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

/**
 * Claude over three turns: a command; a command with the same tool call id (so the same terminal
 * id) cancelled while it runs; a command during which the agent is killed.
 */
async function claudeTurns(ws: string, home: string): Promise<Recording> {
  const base = await claude(ws, home);
  await base.stub.close();
  const bash = (id: string, command: string): Step => ({
    tool: 'Bash',
    id,
    input: { command, description: command === 'ls' ? 'List the files' : 'Wait' },
  });
  const stub = await anthropicStub([
    bash('toolu_01', 'ls'),
    { text: 'Listed.' },
    bash('toolu_01', 'sleep 30'),
    bash('toolu_02', 'sleep 30'),
  ]);
  const running = (command: string) => (params: SessionNotification) =>
    (params.update as { rawInput?: { command?: unknown } }).rawInput?.command === command;
  return {
    ...base,
    file: 'claude-agent-acp-0.49.0-turns.jsonl',
    env: { ...base.env, ANTHROPIC_BASE_URL: stub.url },
    prompt: [
      { prompt: 'List the files.' },
      { prompt: 'Wait a while.', interrupt: { on: running('sleep 30'), by: 'cancel' } },
      { prompt: 'Wait again.', interrupt: { on: running('sleep 30'), by: 'kill' } },
    ],
    stub,
  };
}

/** The protocol version the agent is asked in. */
const PROTOCOL: 1 | 2 = process.env.ACP_RECORD_PROTOCOL === '2' ? 2 : 1;

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

async function qwen(ws: string, home: string): Promise<Recording> {
  const notes = join(ws, 'notes.txt');
  const script: ChatStep[] = [
    { tool: 'read_file', id: 'call_read', input: { file_path: notes } },
    {
      tool: 'edit',
      id: 'call_edit',
      input: { file_path: notes, old_string: 'line two', new_string: 'line 2 (edited)' },
    },
    {
      tool: 'run_shell_command',
      id: 'call_touch',
      input: { command: 'touch done.txt && ls', description: 'Mark it done' },
    },
    { text: 'Done: line 2 of notes.txt is edited.' },
    // The second turn: an answer that never comes, cancelled by the client while it waits.
    { hang: '' },
  ];
  const stub = await chatStub(script, 'run_shell_command');
  const settings = join(home, '.qwen');
  mkdirSync(settings, { recursive: true });
  writeFileSync(
    join(settings, 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'openai' } }, telemetry: { enabled: false } }),
  );
  return {
    file: 'qwen-code-0.15.10.jsonl',
    command: join(BIN, 'qwen'),
    args: ['--acp'],
    env: { OPENAI_API_KEY: 'sk-stub', OPENAI_BASE_URL: `${stub.url}/v1`, OPENAI_MODEL: 'qwen3-coder-plus' },
    prompt: [
      { prompt: 'Change line two of notes.txt, then list the files.' },
      { prompt: 'Now explain it at length.', interrupt: { on: 'model', by: 'cancel' } },
    ],
    stub,
  };
}

/** GitHub Copilot CLI in BYOK mode (`COPILOT_PROVIDER_BASE_URL`: no GitHub sign-in). */
async function copilot(ws: string): Promise<Recording> {
  const notes = join(ws, 'notes.txt');
  const script: ChatStep[] = [
    { tool: 'view', id: 'call_view', input: { path: notes } },
    {
      tool: 'edit',
      id: 'call_edit',
      input: { path: notes, old_str: 'line two', new_str: 'line 2 (edited)' },
    },
    {
      tool: 'bash',
      id: 'call_touch',
      input: { command: 'touch done.txt && ls', description: 'Mark it done' },
    },
    { text: 'Done: line 2 of notes.txt is edited.' },
  ];
  const stub = await chatStub(script, 'bash');
  return {
    file: 'copilot-1.0.102.jsonl',
    command: join(BIN, 'copilot'),
    args: ['--acp'],
    env: {
      COPILOT_PROVIDER_BASE_URL: `${stub.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'sk-stub',
      COPILOT_MODEL: 'gpt-4.1',
    },
    prompt: 'Change line two of notes.txt, then mark it done.',
    stub,
  };
}

/** The recordings, by the name given on the command line. */
const RECORDINGS: Readonly<Record<string, (ws: string, home: string) => Promise<Recording>>> = {
  claude,
  'claude-turns': claudeTurns,
  codex: (ws, home) => codex(ws, home, false),
  codex016: (ws, home) => codex(ws, home, true),
  gemini,
  qwen,
  copilot,
};

async function main(which: string): Promise<void> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'acp-frames-ws-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'acp-frames-home-')));
  for (const [name, text] of Object.entries(WORKSPACE_FILES)) writeFileSync(join(ws, name), text);
  const record = RECORDINGS[which];
  if (!record) throw new Error(`no recording named ${which}: ${Object.keys(RECORDINGS).join(', ')}`);
  const recording = await record(ws, home);
  const lines: string[] = [];
  const keep = (value: unknown): void => {
    lines.push(JSON.stringify(value).split(ws).join('$WS'));
  };
  const env = { PATH: process.env.PATH ?? '', HOME: home, TERM: 'dumb', ...recording.env };
  const connection = await AgentConnection.start({
    // The fixtures are v1 frames (agents that speak v2 too, such as codex-acp 2.6, are asked in v1);
    // ACP_RECORD_PROTOCOL=2 records the v2 turn as the engine's neutral updates instead.
    protocolVersion: PROTOCOL,
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
  const info = connection.agentInfo;
  keep({ initialize: { agentInfo: info } });
  let interrupt: Turn['interrupt'];
  let session: ClientSession | undefined;
  const stop = (): void => {
    const by = interrupt?.by;
    interrupt = undefined;
    if (by === 'cancel') {
      keep({ cancel: true });
      void session?.cancel();
    } else if (by === 'kill') {
      keep({ agentExit: true });
      void connection.kill();
    }
  };
  connection.events.on('diagnostic', ({ message }) => keep({ diagnostic: message }));
  connection.events.on('agentUpdate', ({ sessionId, updates }) => {
    if (PROTOCOL === 2) for (const update of updates) keep({ sessionId, agentUpdate: update });
  });
  connection.events.on('update', (params) => {
    keep(params);
    if (typeof interrupt?.on === 'function' && interrupt.on(params)) stop();
  });
  try {
    session = await connection.newSession({ cwd: ws });
    session.store.onEvent((event: SessionEvent) => {
      if (event.type === 'permission_requested' && event.toolCall)
        keep({ requestPermission: { toolCall: event.toolCall } });
    });
    const turns = typeof recording.prompt === 'string' ? [{ prompt: recording.prompt }] : recording.prompt;
    for (const turn of turns) {
      keep({ prompt: turn.prompt });
      interrupt = turn.interrupt;
      if (interrupt?.on === 'model') void recording.stub.hung.then(stop);
      try {
        const { stopReason } = await session.prompt(turn.prompt);
        keep({ turnEnd: stopReason });
      } catch (error) {
        if (error instanceof ClientError && error.code === 'AGENT_EXITED') break;
        if (!(error instanceof ProtocolError)) throw error;
        keep({ turnError: { code: error.code, message: error.message, data: error.data } });
      }
    }
  } finally {
    await connection.close(500);
    await recording.stub.close();
  }
  const out = join(REPO_ROOT, 'test/fixtures/agent-frames', recording.file);
  const header = [
    `# ${info?.title ?? which} ${info?.version ?? ''} (${info?.name ?? recording.command}), recorded by scripts/record-agent-frames.ts`,
    '# against a local model stub: {"initialize"} with its agentInfo, then one line per session/update params (the workspace is $WS),',
    '# {"requestPermission": {toolCall}} for permission requests, {"prompt"} and {"turnEnd"} around each turn',
    '# ({"cancel"} where the client cancelled it, {"turnError"} when the agent answered the prompt with an error,',
    '# {"agentExit"} where the client killed the agent).',
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

/**
 * `acp run`: one prompt turn with a catalog agent or a command, headless. Nobody can answer
 * permission questions, so what the policy does not allow is denied.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import {
  INTERACTIVE_READ_PACING_MS,
  AcpClient,
  ClientError,
  commandText,
  isRemoteUrl,
  loadRulesFile,
  remoteEntry,
  remoteNotice,
  resolveClientPaths,
  runTerminalAuth,
  type AgentConnection,
  type AgentEntry,
  type AttachMode,
  type BaseMode,
  type ClientSession,
  type PermissionRule,
  type PromptPart,
  type SessionMeta,
} from '@acp-kit/client';
import { exitCodeForError } from '../errors.js';
import { UsageError, exitCodeForStopReason } from '../exit-codes.js';
import { ProtocolError, type McpServer } from '@acp-kit/protocol';
import { loadSettings, settingsPath, usableMcpServers } from '@acp-kit/tui/settings';
import type { CliIo } from '../io.js';
import { RunOutput } from './run-output.js';
import { API_KEY_VARIABLE, JsonRenderer, TextRenderer, type RunRenderer } from './run-render.js';
import { RunStop, STOP_GRACE_MS } from './run-stop.js';

/** A headless run needs no history in memory: the transcript on disk keeps it all. */
const RUN_RETENTION = { maxItems: 200, maxMessageChars: 16 * 1024 };

/** Options of `acp run` (commander's names). */
export interface RunOptions {
  agent?: string;
  cwd?: string;
  format?: string;
  approve?: string;
  policy?: string;
  session?: string;
  file?: string[];
  stall?: string;
  verbose?: boolean;
  auth?: string;
  url?: string;
  /** `--protocol 1|2`: speak this ACP version only. */
  protocol?: string;
}

const APPROVE_MODES: readonly string[] = ['all', 'reads', 'none'];

/** What a run needs before it starts the agent: checked options, the prompt, the client. */
interface PreparedRun {
  client: AcpClient;
  entry: AgentEntry;
  parts: PromptPart[];
  cwd: string;
}

/** Runs `acp run`; resolves with the exit code. */
export async function runCommand(
  promptArg: string | undefined,
  agentCommand: readonly string[] | undefined,
  options: RunOptions,
  io: CliIo,
): Promise<number> {
  const format = options.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format must be text or json, not "${format}"`);
  const output = new RunOutput(io.stdout, io.stderr);
  const renderer: RunRenderer =
    format === 'json' ? new JsonRenderer(output) : new TextRenderer(output, options.verbose === true);
  let prepared: PreparedRun;
  try {
    prepared = await prepareRun(promptArg, agentCommand, options, io);
  } catch (error) {
    // Once the format is known, every failure is reported in it (--format json: error and result lines).
    const code = exitCodeForError(error);
    renderer.error(error, code);
    renderer.result(null, code);
    await output.settle();
    return code;
  }
  const { client, entry, parts, cwd } = prepared;

  // From here on, every way out (the end of the turn, a signal, a broken stdout) goes through `stop`.
  const stop = new RunStop(client, (note) => renderer.info(note));
  const offSignal = io.onSignal((signal) => stop.signal(signal));
  let session: ClientSession | undefined;
  try {
    const connection = await client.connect(entry, {
      cwd,
      onCreated: (starting) => {
        // Before the agent starts: what it prints while starting (stderr, noise) is shown too.
        renderer.connected(starting);
        // A full remote server is asked again later: say why nothing happens yet.
        starting.events.on('remote', (event) => {
          const notice = remoteNotice(event);
          if (notice) renderer.info(notice);
        });
      },
    });
    connection.addBackpressure(() => output.pressure());
    if (options.auth) await authenticate(connection, options.auth, io, cwd);
    let how: AttachMode = 'new';
    const mcpServers = await configuredMcpServers(client, entry, connection, (note) => renderer.info(note));
    if (options.session) {
      const stored = await client.loadStored(options.session).catch((error: unknown) => {
        if (error instanceof ClientError && error.code === 'SESSION_NOT_FOUND') {
          throw new UsageError(`no recorded session matches ${options.session}`, { hint: NO_SESSION_HINT });
        }
        throw error;
      });
      session = stored.session;
      stop.session = session;
      renderer.opening?.(session);
      how = await connection.reattach(
        session,
        {
          ...(stored.meta.agentId ? { agentId: stored.meta.agentId } : {}),
          ...(stored.meta.agentSessionId ? { agentSessionId: stored.meta.agentSessionId } : {}),
        },
        { mcpServers },
      );
    } else {
      session = await connection.newSession({
        cwd,
        mcpServers,
        onSession: (opened) => renderer.opening?.(opened),
      });
      stop.session = session;
    }
    session.store.setRetention(RUN_RETENTION);
    renderer.attached(session, how, entry.id);
    if (stop.stopping) throw new ClientError('AGENT_EXITED', `stopped by ${stop.stoppedBy}`);
    // The run's one turn is the session's last: nothing the agent asks after it is served.
    const turn = session.prompt(parts, { last: true });
    stop.turn = turn;
    const { stopReason, notes } = await turn;
    for (const note of notes) renderer.info(note);
    const code = stop.exitCode ?? exitCodeForStopReason(String(stopReason));
    renderer.result(String(stopReason), code);
    return code;
  } catch (error) {
    const code = stop.exitCode ?? exitCodeForError(error);
    // Stopped by a signal: what failed on the way (the start, the turn) is the stop, not an error.
    if (!stop.stopping) renderer.error(error, code);
    // Agents that are not signed in often fail to open a session with a plain JSON-RPC error.
    if (!stop.stopping && !session && error instanceof ProtocolError && entry.authHint)
      renderer.info(`if ${entry.name} needs you to sign in: ${entry.authHint}`);
    renderer.result(null, code);
    return code;
  } finally {
    await stop.finish();
    // After a signal, a reader that no longer reads must not keep acp alive.
    await output.settle(stop.stopping ? STOP_GRACE_MS : Infinity);
    offSignal();
  }
}

/**
 * The MCP servers configured for `acp` (tui.json: global and per agent), as `acp` gives them to
 * this agent: all of them over the ACP connection when it takes MCP-over-ACP (a remote agent then
 * uses servers that exist only here), else those it can reach. Problems in the file are told, not fatal.
 */
async function configuredMcpServers(
  client: AcpClient,
  entry: AgentEntry,
  connection: AgentConnection,
  info: (note: string) => void,
): Promise<McpServer[]> {
  const { settings, problems } = await loadSettings(settingsPath(client.paths.configDir));
  for (const problem of problems) info(`settings: ${problem}`);
  return usableMcpServers(settings, entry.id, connection.features.mcp).map(({ server }) => server);
}

/** `--protocol`'s value: 1 or 2. */
export function protocolOption(value: string): 1 | 2 {
  if (value !== '1' && value !== '2')
    throw new UsageError(`--protocol must be 1 or 2, not "${value.slice(0, 20)}"`);
  return value === '1' ? 1 : 2;
}

/** Checks the options, reads the prompt (and stdin), and finds the agent. */
async function prepareRun(
  promptArg: string | undefined,
  agentCommand: readonly string[] | undefined,
  options: RunOptions,
  io: CliIo,
): Promise<PreparedRun> {
  const approve = options.approve ?? 'reads';
  if (!APPROVE_MODES.includes(approve))
    throw new UsageError(`--approve must be all, reads or none, not "${approve}"`);
  if (options.agent && agentCommand)
    throw new UsageError('give either --agent NAME or a command after --, not both');
  if (options.url && (options.agent || agentCommand))
    throw new UsageError('give one agent: --url URL, --agent NAME or a command after --');
  const prompt = await readPrompt(promptArg, io);
  const stallMs = options.stall === undefined ? undefined : Number(options.stall) * 1000;
  if (stallMs !== undefined && !(stallMs > 0)) throw new UsageError('--stall takes a number of seconds');
  const cwd = resolve(io.cwd, options.cwd ?? '.');
  if (!(await stat(cwd).catch(() => undefined))?.isDirectory())
    throw new UsageError(`--cwd ${cwd} is not a directory`);
  const extraRules = options.policy ? await readPolicy(resolve(io.cwd, options.policy)) : undefined;

  const client = await AcpClient.create({
    paths: resolveClientPaths(io.env),
    env: io.env,
    self: io.self,
    mode: approve as BaseMode,
    coalesceReadsMs: INTERACTIVE_READ_PACING_MS,
    // One turn with a light state: replaying the record at exit for a checkpoint would hold the
    // whole session in memory at once (battery D1); the UI writes it when it next closes it.
    checkpoints: false,
    ...(extraRules ? { extraRules } : {}),
    ...(stallMs !== undefined ? { stallMs } : {}),
    ...(options.protocol ? { protocolVersion: protocolOption(options.protocol) } : {}),
  });
  const recorded = options.session ? await findRecorded(client, options.session) : undefined;
  const entry = chooseAgent(client, options.agent, agentCommand, io.cwd, recorded, options.url);
  const parts: PromptPart[] = [
    ...prompt,
    ...(options.file ?? []).map((path): PromptPart => ({ type: 'file', path: resolve(io.cwd, path) })),
  ];
  return { client, entry, parts, cwd };
}

/**
 * The prompt's text parts: the argument; or stdin, for `-` and when a shell pipes or redirects
 * into acp without an argument; with both, the argument and then the piped text, as its own text
 * block. Only a shell's pipe or file is read unasked: a program that starts acp with an open
 * stdin it never closes would otherwise leave it waiting.
 */
async function readPrompt(promptArg: string | undefined, io: CliIo): Promise<PromptPart[]> {
  if (promptArg === '-' || (promptArg === undefined && io.stdinPiped === true)) {
    const text = await io.readStdin();
    if (text.trim() === '') throw new UsageError('the prompt is empty (stdin had no text)');
    return [text];
  }
  if (promptArg === undefined)
    throw new UsageError('no prompt', {
      hint: 'acp run "PROMPT", or pipe it in: echo "PROMPT" | acp run (acp run - reads stdin whatever it is)',
    });
  if (promptArg.trim() === '') throw new UsageError('the prompt is empty');
  const piped = io.stdinPiped === true ? await io.readStdin() : '';
  return piped.trim() === '' ? [promptArg] : [promptArg, { type: 'text', text: piped }];
}

const NO_SESSION_HINT = '`acp sessions list` shows the recorded sessions and their ids';

async function findRecorded(client: AcpClient, id: string): Promise<SessionMeta> {
  const meta = await client.transcripts.find(id);
  if (!meta) throw new UsageError(`no recorded session matches ${id}`, { hint: NO_SESSION_HINT });
  return meta;
}

/**
 * The agent: a remote URL (`--url`), else a command after --, else --agent, else the continued
 * session's own, else the default.
 */
export function chooseAgent(
  client: Pick<AcpClient, 'catalog'>,
  name: string | undefined,
  command: readonly string[] | undefined,
  cwd: string,
  recorded?: SessionMeta,
  url?: string,
): AgentEntry {
  if (url !== undefined) {
    if (!isRemoteUrl(url))
      throw new UsageError(`--url needs an http:// or https:// address, not "${url.slice(0, 200)}"`, {
        hint: 'e.g. acp --url http://127.0.0.1:8765/acp (what acp serve prints)',
      });
    return remoteEntry(url);
  }
  if (command && command.length > 0) {
    const [given, ...args] = command as [string, ...string[]];
    // A relative path means relative to where acp was run, not to --cwd.
    const program = given.includes('/') ? resolve(cwd, given) : given;
    return {
      id: `cmd:${commandText({ argv: [basename(program), ...args] }).slice(0, 120)}`,
      name: basename(program),
      source: 'user',
      command: program,
      args,
    };
  }
  if (!name && recorded?.agentId?.startsWith('cmd:')) {
    throw new UsageError(`session ${recorded.localId} ran an agent given as a command`, {
      hint: `give that command again after --, or a catalog agent with --agent: acp run --session ${recorded.localId} "…" -- ${recorded.agentId.slice(4)}`,
    });
  }
  const chosen = name ?? recorded?.agentId ?? client.catalog.defaultAgent;
  if (!chosen) {
    throw new UsageError(
      'no agent: use --agent NAME (see `acp agents`), set a default with `acp agents add --default`, or give a command after --',
    );
  }
  return client.catalog.require(chosen);
}

async function readPolicy(path: string): Promise<PermissionRule[]> {
  try {
    return await loadRulesFile(path);
  } catch (error) {
    if (error instanceof ClientError) throw new UsageError(`--policy: ${error.message}`);
    throw error;
  }
}

/**
 * `--auth ID`: an agent method is called; a terminal method runs its login command in this
 * terminal (only when someone is there to answer it), then the agent is restarted; a method that
 * takes a key gets it from {@link API_KEY_VARIABLE}.
 */
async function authenticate(
  connection: AgentConnection,
  methodId: string,
  io: CliIo,
  cwd: string,
): Promise<void> {
  const option = connection.authOptions.find((candidate) => candidate.id === methodId);
  // An agent that lists its methods in `initialize` knows no others (some list them only when
  // they refuse a session: then the agent judges the id).
  if (!option && connection.authOptions.length > 0) {
    throw new UsageError(`${connection.agent.name} has no sign-in method "${methodId}"`, {
      hint: `its methods: ${connection.authOptions.map((known) => `--auth ${known.id} (${known.name})`).join(', ')}`,
    });
  }
  if (option?.action === 'run-terminal') {
    if (!io.interactive) {
      throw new UsageError(
        `--auth ${methodId} runs a login in a terminal and this is not one: ${option.instructions}, then run again`,
      );
    }
    const result = await runTerminalAuth(option, { cwd, env: io.env });
    if (!result.ok) {
      throw new ClientError(
        'AUTH_REQUIRED',
        `the login of ${methodId} ended with ${result.signal ?? `exit code ${String(result.exitCode)}`}`,
      );
    }
    await connection.restart();
    return;
  }
  if (!option?.input) {
    await signIn(connection, methodId);
    return;
  }
  const apiKey = io.env[API_KEY_VARIABLE];
  if (!apiKey) {
    throw new UsageError(
      `--auth ${methodId} needs your ${option.input.label}: set ${API_KEY_VARIABLE} to it (it is passed to the agent, not stored)`,
    );
  }
  await signIn(connection, methodId, { apiKey });
}

/** `authenticate`; the agent refusing it is a failed sign-in (exit code 6), with its reason. */
async function signIn(
  connection: AgentConnection,
  methodId: string,
  secrets: { apiKey?: string } = {},
): Promise<void> {
  try {
    await connection.authenticate(methodId, secrets);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    throw new ClientError(
      'AUTH_REQUIRED',
      `${connection.agent.name} did not sign you in with ${methodId}: ${error.message}`,
      {
        authOptions: connection.authOptions,
        agentId: connection.agent.id,
        // What the agent was not given may be why it refused.
        ...(connection.heldBackEnv.length > 0 ? { heldBackEnv: connection.heldBackEnv } : {}),
      },
    );
  }
}

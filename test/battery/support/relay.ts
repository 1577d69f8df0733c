/**
 * The relay agent (`fixtures/relay-agent.mjs`) from the client engine's side: catalog entries
 * that launch it, an `AcpClient` in a temp home with a recording host and a canary-watching debug
 * logger, and the `_battery/*` calls that make the agent send requests to our client.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AcpClient,
  resolveClientPaths,
  type AcpClientOptions,
  type AgentConnection,
  type AgentEntry,
  type BaseMode,
  type ClientHost,
} from '@acp-kit/client';
import type { CanaryWatch } from './canary.js';
import { fixture, makeHome, pollUntil, within, type BatteryHome } from './procs.js';

export const RELAY_AGENT = fixture('relay-agent.mjs');

/** Options of the relay agent (see the header of relay-agent.mjs). */
export interface RelayOptions {
  /** Put in its argv (and its grandchildren's) to count processes afterwards. */
  token?: string;
  /** Status lines go to this file. */
  status?: string;
  /** A method it never answers. */
  hang?: string;
  ignoreCancel?: boolean;
  ignoreSigterm?: boolean;
  ignoreSighup?: boolean;
  ignoreStdinEof?: boolean;
  noiseBefore?: number;
  noiseBetween?: number;
  stderrBefore?: number;
  initDelayMs?: number;
  exitOnInitialize?: number;
  recordMethods?: boolean;
  name?: string;
  version?: string;
  /** Steps run for a prompt that is not itself a script. */
  script?: unknown[];
  /** Steps run right after answering `session/new` (close stdin, close stdout…). */
  afterNew?: unknown[];
  /** Steps run right after answering a `session/prompt` (requests after the turn's end). */
  afterPrompt?: unknown[];
}

/** A catalog entry that runs the relay agent with `options`. */
export function relayEntry(options: RelayOptions = {}, id = 'relay'): AgentEntry {
  return {
    id,
    name: options.name ?? 'relay',
    source: 'user',
    command: process.execPath,
    args: [RELAY_AGENT, JSON.stringify(options)],
  };
}

/** The relay agent as `acp run … -- CMD ARGS`. */
export function relayCommand(options: RelayOptions = {}): string[] {
  return [process.execPath, RELAY_AGENT, JSON.stringify(options)];
}

/**
 * Timeouts of the client engine, as the client engineer adds them (`AcpClient.create({ timeouts })`).
 * Declared here until the option exists, so this file compiles against today's engine too.
 */
export interface EngineTimeouts {
  initializeMs?: number;
  sessionOpenMs?: number;
  cancelGraceMs?: number;
}

export interface BatteryClientOptions {
  mode?: BaseMode;
  host?: ClientHost;
  watch: CanaryWatch;
  timeouts?: EngineTimeouts;
  /** Environment of the client (agents inherit from it as the engine decides). */
  env?: NodeJS.ProcessEnv;
  fs?: AcpClientOptions['fs'];
  terminals?: AcpClientOptions['terminals'];
  home?: BatteryHome;
}

/** A client engine in a temp home. */
export interface BatteryClient {
  readonly client: AcpClient;
  readonly home: BatteryHome;
  close(): Promise<void>;
}

/** Creates an `AcpClient` that records into a temp home, logging at debug level into `watch`. */
export async function batteryClient(options: BatteryClientOptions): Promise<BatteryClient> {
  const home = options.home ?? makeHome('client');
  const env = { ...home.env, ...options.env };
  const createOptions: AcpClientOptions & { timeouts?: EngineTimeouts } = {
    paths: resolveClientPaths(env),
    env,
    mode: options.mode ?? 'all',
    logger: options.watch.logger('client'),
    ...(options.host ? { host: options.host } : {}),
    ...(options.fs ? { fs: options.fs } : {}),
    ...(options.terminals ? { terminals: options.terminals } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  };
  const client = await AcpClient.create(createOptions);
  return {
    client,
    home,
    close: async () => {
      await client.close().catch(() => undefined);
      options.watch.scanTree(home.root, 'client home');
      if (!options.home) home.cleanup();
    },
  };
}

/** What the relay agent got back from our client for a request it relayed. */
export interface RelayAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * Makes the agent send `method` to our client and returns our client's answer. `fill` has the
 * agent put `bytes` characters in one field of the params itself (big writes).
 */
export async function relayCall(
  connection: AgentConnection,
  method: string,
  params: unknown,
  fill?: { field: string; bytes: number },
): Promise<RelayAnswer> {
  const body = { method, params, ...(fill ? { fill } : {}) };
  return (await connection.connection.extRequest('_battery/call', body)) as RelayAnswer;
}

/**
 * Makes the agent create a terminal and, when it was created, wait for its exit, read its output
 * and release it; returns the answers to the creation and to the output request.
 */
export async function relayTerminal(
  connection: AgentConnection,
  sessionId: string,
  params: Record<string, unknown>,
): Promise<{ created: RelayAnswer; output?: RelayAnswer }> {
  const call = (method: string, more: Record<string, unknown>) =>
    relayCall(connection, method, { sessionId, ...more });
  const created = await call('terminal/create', params);
  const terminalId = (created.result as { terminalId?: string } | undefined)?.terminalId;
  if (!terminalId) return { created };
  await call('terminal/wait_for_exit', { terminalId });
  const output = await call('terminal/output', { terminalId });
  await call('terminal/release', { terminalId });
  return { created, output };
}

/** Makes the agent send many requests (with `concurrency` in flight) and returns the answers in order. */
export async function relayCalls(
  connection: AgentConnection,
  calls: readonly { method: string; params: unknown }[],
  concurrency = 1,
): Promise<RelayAnswer[]> {
  const answer = (await connection.connection.extRequest('_battery/calls', { calls, concurrency })) as {
    results: RelayAnswer[];
  };
  return answer.results;
}

/** Makes the agent run script steps outside a turn. */
export async function relayScript(
  connection: AgentConnection,
  sessionId: string,
  steps: unknown[],
): Promise<void> {
  await connection.connection.extRequest('_battery/script', { sessionId, steps });
}

/** The agent's pid, environment and argv, as it sees them. */
export async function relayInfo(
  connection: AgentConnection,
): Promise<{ pid: number; env: Record<string, string>; argv: string[] }> {
  return (await connection.connection.extRequest('_battery/info', {})) as {
    pid: number;
    env: Record<string, string>;
    argv: string[];
  };
}

/** The connection is still usable after a case (RELIABILITY's second invariant): a round trip answers. */
export async function assertUsable(connection: AgentConnection): Promise<void> {
  const info = await within(relayInfo(connection), 10_000, 'a round trip after the case');
  if (!(info.pid > 0)) throw new Error('the agent did not answer a round trip after the case');
}

/** One line of a relay agent's status file. */
export interface StatusRecord {
  pid: number;
  t: number;
  event: string;
  [key: string]: unknown;
}

/** Reads a status file (empty when it does not exist yet). */
export function readStatus(file: string): StatusRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StatusRecord);
}

/** Polls the status file until a record matches; returns it. */
export async function waitForStatus(
  file: string,
  match: (record: StatusRecord) => boolean,
  timeoutMs = 15_000,
): Promise<StatusRecord> {
  let found: StatusRecord | undefined;
  await pollUntil(
    () => {
      found = readStatus(file).find(match);
      return found !== undefined;
    },
    `status ${file}`,
    timeoutMs,
  );
  return found as StatusRecord;
}

/** A status file path in `home`. */
export function statusFile(home: BatteryHome, name = 'status.jsonl'): string {
  return join(home.root, name);
}

/** The options agents usually offer: allow once, reject once. */
export const ALLOW_REJECT = [
  { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
  { optionId: 'no', name: 'No', kind: 'reject_once' },
];

/** A script step: the agent asks `session/request_permission` about `toolCallId`; `label` names its answer in the status file. */
export function askStep(toolCallId: string, label = toolCallId): Record<string, unknown> {
  return {
    request: 'session/request_permission',
    params: { toolCall: { toolCallId, title: `may I (${toolCallId})` }, options: ALLOW_REJECT },
    label,
  };
}

/** A prompt that the relay agent runs as a script. */
export function script(steps: unknown[]): string {
  return JSON.stringify(steps);
}

/**
 * The two readers under test, in this process: our client's (`ClientSideConnection`) and our
 * agent's (`serveAgent` with the demo engine, the code behind `acp agent --demo`), each on a
 * {@link ScriptedChannel} the battery feeds byte by byte.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemoEngine, serveAgent } from '@acp-kit/agent';
import {
  AgentSideConnection,
  ClientSideConnection,
  PROTOCOL_VERSION,
  type Logger,
  type TypedConnection,
  type TypedConnectionOptions,
} from '@acp-kit/protocol';
import { eventually, ScriptedChannel } from './channel.js';

/** One side's reader on a scripted channel. */
export interface Reader {
  readonly side: 'client' | 'agent';
  readonly channel: ScriptedChannel;
  readonly connection: TypedConnection;
  /** What reached the handlers (client: `session/update` params; agent: `session/cancel` params). */
  readonly received: unknown[];
  /** Requests whose handler ran, by method. */
  readonly handled: string[];
  close(): Promise<void>;
}

/** Our client's reader: records `session/update`s and every request that reaches a handler. */
export function clientReader(options: TypedConnectionOptions = {}): Reader {
  const channel = new ScriptedChannel();
  const received: unknown[] = [];
  const handled: string[] = [];
  const fail = (method: string) => () => {
    handled.push(method);
    throw new Error(`${method} is not served by this reader`);
  };
  const connection = new ClientSideConnection(
    channel,
    {
      sessionUpdate: (params) => void received.push(params),
      requestPermission: () => {
        handled.push('session/request_permission');
        return { outcome: { outcome: 'cancelled' } };
      },
      readTextFile: fail('fs/read_text_file'),
      writeTextFile: fail('fs/write_text_file'),
      createTerminal: fail('terminal/create'),
      terminalOutput: fail('terminal/output'),
      waitForTerminalExit: fail('terminal/wait_for_exit'),
      killTerminal: fail('terminal/kill'),
      releaseTerminal: fail('terminal/release'),
      createElicitation: () => {
        handled.push('elicitation/create');
        return { action: 'decline' };
      },
      completeElicitation: () => void handled.push('elicitation/complete'),
    },
    options,
  ).start();
  return { side: 'client', channel, connection, received, handled, close: () => connection.close() };
}

/** The id of the `initialize` each agent reader sends itself before a case. */
const INITIALIZE_ID = 'battery-initialize';

/** A minimal agent on our agent-side connection: records `session/cancel`s and every handled request. */
export function agentReader(options: TypedConnectionOptions = {}): Reader {
  const channel = new ScriptedChannel();
  const received: unknown[] = [];
  const handled: string[] = [];
  const record =
    <T>(method: string, result: T) =>
    () => {
      handled.push(method);
      return result;
    };
  const connection = new AgentSideConnection(
    channel,
    () => ({
      initialize: (params) => {
        if (params._meta?.['battery'] !== 'setup') handled.push('initialize');
        return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} };
      },
      authenticate: record('authenticate', {}),
      logout: record('logout', {}),
      newSession: record('session/new', { sessionId: 's-1' }),
      loadSession: record('session/load', {}),
      listSessions: record('session/list', { sessions: [] }),
      resumeSession: record('session/resume', {}),
      closeSession: record('session/close', {}),
      deleteSession: record('session/delete', {}),
      setSessionMode: record('session/set_mode', {}),
      setSessionConfigOption: record('session/set_config_option', { configOptions: [] }),
      promptSession: record('session/prompt', { stopReason: 'end_turn' as const }),
      cancelSession: (params) => void received.push(params),
    }),
    options,
  );
  connection.start();
  // The agent side refuses requests (and drops cancels) before `initialize` (case B4): the reader
  // is initialized first, out of the record, so every case meets a ready agent.
  channel.unrecorded.add(INITIALIZE_ID);
  channel.feedText(
    JSON.stringify({
      jsonrpc: '2.0',
      id: INITIALIZE_ID,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {}, _meta: { battery: 'setup' } },
    }) + '\n',
  );
  return { side: 'agent', channel, connection, received, handled, close: () => connection.close() };
}

/** The real agent (`serveAgent` + `DemoEngine`, as `acp agent --demo` runs it) on a scripted channel. */
export function demoAgentReader(logger?: Logger): Reader & { dataDir: string } {
  const channel = new ScriptedChannel();
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-battery-agent-'));
  const served = serveAgent(channel, {
    engine: new DemoEngine({ delayMs: 0 }),
    dataDir,
    ...(logger ? { logger } : {}),
  });
  // Before a valid `initialize` the negotiating agent answers every request -32600 (as the SDK's
  // router does): initialized in v1 first, out of the record, as the agent reader is. Cases that
  // send their own `initialize` repeat it, which v1 accepts.
  channel.unrecorded.add(INITIALIZE_ID);
  channel.feedText(
    JSON.stringify({
      jsonrpc: '2.0',
      id: INITIALIZE_ID,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {}, _meta: { battery: 'setup' } },
    }) + '\n',
  );
  return {
    side: 'agent',
    channel,
    // The version is chosen by the client's first initialize; before it there is only the engine,
    // whose `isClosed` and `closed` are what the cases read.
    get connection() {
      return served.served.negotiated?.connection ?? (served.served.rpc as unknown as TypedConnection);
    },
    received: [],
    handled: [],
    dataDir,
    close: async () => {
      await served.close();
      await served.closed;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Both readers, for cases that run against each side. */
export const READERS = [
  { side: 'client', make: clientReader },
  { side: 'agent', make: agentReader },
] as const;

type Frame = Record<string, unknown>;

/** The `error.code` of a frame, if it has one. */
export const errorCode = (frame: Frame | undefined): unknown => (frame?.error as Frame | undefined)?.code;

/**
 * Feeds lines, then a barrier request to an unknown method; returns the frames the reader wrote
 * before the barrier's answer (answers go out in processing order, so those are the lines' answers).
 */
export async function exchange(reader: Reader, lines: readonly string[]): Promise<Frame[]> {
  const start = reader.channel.out.length;
  const barrier = `barrier-${start}`;
  for (const line of lines) reader.channel.feedText(line + '\n');
  reader.channel.feedText(JSON.stringify({ jsonrpc: '2.0', id: barrier, method: '_battery/barrier' }) + '\n');
  await eventually(() => reader.channel.out.some((f) => (f as Frame).id === barrier), 'barrier answered');
  const out = reader.channel.out.slice(start) as Frame[];
  return out.slice(
    0,
    out.findIndex((f) => f.id === barrier),
  );
}

/** Sends an unknown extension request and waits for its -32601: the reader is still alive. */
export async function assertReaderAlive(reader: Reader, id = 'live'): Promise<void> {
  reader.channel.feedText(JSON.stringify({ jsonrpc: '2.0', id, method: '_battery/live', params: {} }) + '\n');
  await eventually(
    () => reader.channel.out.some((f) => (f as Frame).id === id),
    `${reader.side} reader answers after the case`,
  );
  const reply = reader.channel.out.find((f) => (f as Frame).id === id) as Frame;
  if (errorCode(reply) !== -32601 || reader.connection.isClosed)
    throw new Error(`${reader.side} reader: liveness request got ${JSON.stringify(reply).slice(0, 200)}`);
}

/**
 * Test harness for the interop suites: a fake editor (the client-side state both client libraries
 * serve), and drivers that put an acp-kit or SDK client in front of an SDK or acp-kit agent,
 * in-process over web streams or over a child process's pipes.
 */
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import {
  ClientSideConnection,
  ProtocolError,
  type AgentSideConnection,
  type ClientHandlers,
  type TypedConnectionOptions,
  type ValidationReport,
} from '@acp-kit/protocol';
import type * as T from '@acp-kit/protocol';
import { spawnPeer, type SpawnedPeer } from '@acp-kit/protocol/node';
import { webStreamChannel } from '../../src/transport/web-stream.js';
import { createAcpKitAgent } from './fixtures/acp-kit-agent.js';
import { createSdkAgent } from './fixtures/sdk-agent.mjs';
import { observePauses, type PauseProbe } from './fixtures/pause-probe.js';
import { CANCEL_PERMISSION_CALL_ID, FILES, TERMINAL, sliceLines } from './fixtures/scenario.mjs';

/** packages/protocol, the working directory of child processes (so `tsx` and the SDK resolve). */
export const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const SDK_AGENT_SCRIPT = fileURLToPath(new URL('./fixtures/sdk-agent.mjs', import.meta.url));
export const ACP_KIT_AGENT_SCRIPT = fileURLToPath(
  new URL('./fixtures/acp-kit-agent-main.ts', import.meta.url),
);
/** Node flags that run acp-kit from source: the package's source condition and the tsx loader. */
export const TSX_NODE_ARGS = ['--conditions=@acp-kit/source', '--import', 'tsx'];

export interface RecordedCall {
  method: string;
  params: unknown;
}

/**
 * The client's world: files, a scripted terminal, the permission prompt, and everything the agent
 * asked for, recorded in order. Library-neutral: both client adapters delegate to it.
 */
export class FakeEditor {
  readonly files = new Map<string, string>([[FILES.readPath, FILES.initialContent]]);
  readonly calls: RecordedCall[] = [];
  readonly notifications: T.SessionNotification[] = [];
  private readonly pendingPermissions = new Map<
    string,
    ((response: T.RequestPermissionResponse) => void)[]
  >();
  private readonly listeners = new Set<() => void>();
  /** Makes `sessionUpdate` asynchronous: it records each update a macrotask later (a slow UI). */
  slowUpdates = false;
  /** When set, `sessionUpdate` waits for it before recording anything (a UI that is stuck for a while). */
  gate: Promise<void> | undefined;

  /** Resolves with the first truthy value of `find`, re-checked after every recorded event. */
  until<R>(find: () => R | undefined | null | false): Promise<R> {
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = () => {
        const value = find();
        if (value) {
          this.listeners.delete(listener);
          resolve(value);
        }
      };
      this.listeners.add(listener);
    });
  }

  /** The updates received for `sessionId`, in order. */
  updates(sessionId: string): T.SessionUpdate[] {
    return this.notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  }

  callsOf(prefix: string): RecordedCall[] {
    return this.calls.filter((c) => c.method.startsWith(prefix));
  }

  pendingPermissionCount(sessionId: string): number {
    return this.pendingPermissions.get(sessionId)?.length ?? 0;
  }

  /** What a client does on session/cancel: answer the session's pending permission requests `cancelled`. */
  cancelPendingPermissions(sessionId: string): void {
    const pending = this.pendingPermissions.get(sessionId) ?? [];
    this.pendingPermissions.delete(sessionId);
    for (const resolve of pending) resolve({ outcome: { outcome: 'cancelled' } });
  }

  // ---- handlers ----

  sessionUpdate(params: T.SessionNotification): void | Promise<void> {
    const record = () => {
      this.notifications.push(params);
      this.changed();
    };
    if (this.gate) return this.gate.then(record);
    if (!this.slowUpdates) return record();
    return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(record);
  }

  requestPermission(
    params: T.RequestPermissionRequest,
  ): T.RequestPermissionResponse | Promise<T.RequestPermissionResponse> {
    this.record('session/request_permission', params);
    if (params.toolCall.toolCallId === CANCEL_PERMISSION_CALL_ID) {
      // Leave it to the user… who never answers: only a cancel settles it.
      return new Promise((resolve) => {
        const list = this.pendingPermissions.get(params.sessionId) ?? [];
        list.push(resolve);
        this.pendingPermissions.set(params.sessionId, list);
        this.changed();
      });
    }
    const option = params.options.find((o) => o.kind === 'allow_once') ?? params.options[0];
    if (!option) return { outcome: { outcome: 'cancelled' } };
    return { outcome: { outcome: 'selected', optionId: option.optionId } };
  }

  readTextFile(params: T.ReadTextFileRequest): T.ReadTextFileResponse {
    this.record('fs/read_text_file', params);
    const text = this.files.get(params.path);
    if (text === undefined) throw new Error(`no such file: ${params.path}`);
    return { content: sliceLines(text, params.line, params.limit) };
  }

  writeTextFile(params: T.WriteTextFileRequest): T.WriteTextFileResponse {
    this.record('fs/write_text_file', params);
    this.files.set(params.path, params.content);
    return {};
  }

  createTerminal(params: T.CreateTerminalRequest): T.CreateTerminalResponse {
    this.record('terminal/create', params);
    return { terminalId: TERMINAL.terminalId };
  }

  terminalOutput(params: T.TerminalOutputRequest): T.TerminalOutputResponse {
    this.record('terminal/output', params);
    return structuredClone(TERMINAL.output);
  }

  waitForTerminalExit(params: T.WaitForTerminalExitRequest): T.WaitForTerminalExitResponse {
    this.record('terminal/wait_for_exit', params);
    return structuredClone(TERMINAL.exit);
  }

  killTerminal(params: T.KillTerminalRequest): T.KillTerminalResponse {
    this.record('terminal/kill', params);
    return {};
  }

  releaseTerminal(params: T.ReleaseTerminalRequest): T.ReleaseTerminalResponse {
    this.record('terminal/release', params);
    return {};
  }

  private record(method: string, params: unknown): void {
    this.calls.push({ method, params });
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** The client side of a test, whichever library and transport it uses. */
export interface ClientDriver {
  /** `acp-kit` when our ClientSideConnection is the client, `sdk` when the SDK's client app is. */
  readonly client: 'acp-kit' | 'sdk';
  readonly editor: FakeEditor;
  /** Class of the errors the client library rejects with when the agent answers an error. */
  readonly protocolErrorClass: new (...args: never[]) => Error;
  /** Validation reports of our client (always empty for the SDK client). */
  readonly validationReports: ValidationReport[];
  /** Our agent's connection when it runs in this process (to look at what it recorded). */
  readonly inProcessAgent?: AgentSideConnection;
  initialize(params: T.InitializeRequest): Promise<T.InitializeResponse>;
  newSession(params: T.NewSessionRequest): Promise<T.NewSessionResponse>;
  /** session/prompt; aborting `signal` sends `$/cancel_request`. */
  prompt(params: T.PromptRequest, options?: { signal?: AbortSignal }): Promise<T.PromptResponse>;
  extRequest(method: `_${string}`, params: unknown): Promise<unknown>;
  extNotification(method: `_${string}`, params: unknown): Promise<void>;
  closeSession(sessionId: string): Promise<void>;
  /** session/cancel, then what a client must do: answer the session's pending permissions `cancelled`. */
  cancel(sessionId: string): Promise<void>;
  /** Closes the connection and stops the peer process; idempotent. */
  dispose(): Promise<void>;
}

// ---------------------------------------------------------------- acp-kit client

function acpKitClientHandlers(editor: FakeEditor): ClientHandlers {
  return {
    sessionUpdate: (p) => editor.sessionUpdate(p),
    requestPermission: (p) => editor.requestPermission(p),
    readTextFile: (p) => editor.readTextFile(p),
    writeTextFile: (p) => editor.writeTextFile(p),
    createTerminal: (p) => editor.createTerminal(p),
    terminalOutput: (p) => editor.terminalOutput(p),
    waitForTerminalExit: (p) => editor.waitForTerminalExit(p),
    killTerminal: (p) => editor.killTerminal(p),
    releaseTerminal: (p) => editor.releaseTerminal(p),
  };
}

export interface AcpKitClientDriver extends ClientDriver {
  readonly connection: ClientSideConnection;
  /** The engine's pause/resume calls on our client's channel. */
  readonly flow: PauseProbe;
}

export function acpKitClientDriver(
  channel: T.ByteChannel,
  options: TypedConnectionOptions,
  stop: (connection: ClientSideConnection) => Promise<void>,
): AcpKitClientDriver {
  const editor = new FakeEditor();
  const validationReports: ValidationReport[] = [];
  const { channel: observed, probe } = observePauses(channel);
  const connection = new ClientSideConnection(observed, acpKitClientHandlers(editor), {
    validateOutgoing: true,
    onValidation: (report) => validationReports.push(report),
    ...options,
  }).start();
  let disposed: Promise<void> | undefined;
  return {
    client: 'acp-kit',
    editor,
    connection,
    flow: probe,
    protocolErrorClass: ProtocolError,
    validationReports,
    initialize: (p) => connection.initialize(p),
    newSession: (p) => connection.newSession(p),
    prompt: (p, options) => connection.promptSession(p, options),
    extRequest: (method, params) => connection.extRequest(method, params),
    extNotification: (method, params) => connection.extNotification(method, params),
    closeSession: async (sessionId) => {
      await connection.closeSession({ sessionId });
    },
    cancel: async (sessionId) => {
      await connection.cancelSession({ sessionId });
      editor.cancelPendingPermissions(sessionId);
    },
    dispose: () => (disposed ??= stop(connection)),
  };
}

/** Our client ↔ the SDK agent, in this process, over two TransformStreams. */
export function acpKitClientToSdkAgentInProcess(options: TypedConnectionOptions = {}): AcpKitClientDriver {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const agent = createSdkAgent().connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  return acpKitClientDriver(
    webStreamChannel(toClient.readable, toAgent.writable),
    options,
    async (connection) => {
      await connection.close();
      agent.close();
      await agent.closed;
    },
  );
}

/** Our client ↔ the SDK agent as a child process (`node sdk-agent.mjs`), through spawnPeer. */
export function acpKitClientToSdkAgentProcess(
  options: TypedConnectionOptions = {},
): AcpKitClientDriver & { peer: SpawnedPeer } {
  const peer = spawnPeer(process.execPath, [SDK_AGENT_SCRIPT], { cwd: PACKAGE_DIR });
  const driver = acpKitClientDriver(peer.channel, options, async (connection) => {
    await connection.close();
    await peer.shutdown({ graceMs: 3000 });
  });
  return Object.assign(driver, { peer });
}

// ---------------------------------------------------------------- SDK client

export function sdkClientApp(editor: FakeEditor): acp.ClientApp {
  return acp
    .client({ name: 'sdk-interop-client' })
    .onNotification(acp.methods.client.session.update, ({ params }) => editor.sessionUpdate(params))
    .onRequest(
      acp.methods.client.session.requestPermission,
      // acp-kit's outcome type also admits unknown variants; the editor only builds known ones.
      ({ params }) =>
        Promise.resolve(editor.requestPermission(params)) as Promise<acp.RequestPermissionResponse>,
    )
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => editor.readTextFile(params))
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => editor.writeTextFile(params))
    .onRequest(acp.methods.client.terminal.create, ({ params }) => editor.createTerminal(params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => editor.terminalOutput(params))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => editor.waitForTerminalExit(params))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => editor.killTerminal(params))
    .onRequest(acp.methods.client.terminal.release, ({ params }) => editor.releaseTerminal(params));
}

export function sdkClientDriver(
  editor: FakeEditor,
  connection: acp.ClientConnection,
  stop: () => Promise<void>,
  inProcessAgent?: AgentSideConnection,
): ClientDriver {
  const agent = connection.agent;
  let disposed: Promise<void> | undefined;
  return {
    client: 'sdk',
    editor,
    protocolErrorClass: acp.RequestError,
    validationReports: [],
    inProcessAgent,
    initialize: (p) => agent.request(acp.methods.agent.initialize, p) as Promise<T.InitializeResponse>,
    newSession: (p) => agent.request(acp.methods.agent.session.new, p) as Promise<T.NewSessionResponse>,
    prompt: (p, options) =>
      agent.request(acp.methods.agent.session.prompt, p, {
        cancellationSignal: options?.signal,
      }) as Promise<T.PromptResponse>,
    extRequest: (method, params) => agent.request(method, params),
    extNotification: (method, params) => agent.notify(method, params),
    closeSession: async (sessionId) => {
      await agent.request(acp.methods.agent.session.close, { sessionId });
    },
    cancel: async (sessionId) => {
      await agent.notify(acp.methods.agent.session.cancel, { sessionId });
      editor.cancelPendingPermissions(sessionId);
    },
    dispose: () => (disposed ??= stop()),
  };
}

/** The SDK client ↔ our agent, in this process, over two TransformStreams. */
export function sdkClientToAcpKitAgentInProcess(options: TypedConnectionOptions = {}): ClientDriver {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const agent = createAcpKitAgent(webStreamChannel(toAgent.readable, toClient.writable), options);
  const editor = new FakeEditor();
  const connection = sdkClientApp(editor).connect(acp.ndJsonStream(toAgent.writable, toClient.readable));
  return sdkClientDriver(
    editor,
    connection,
    async () => {
      connection.close();
      await connection.closed;
      await agent.close();
    },
    agent,
  );
}

/** Exit status and stderr of a child started by {@link sdkClientToAcpKitAgentProcess}. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * The SDK client ↔ our agent as a child process, run from source with tsx
 * (`node --conditions=@acp-kit/source --import tsx acp-kit-agent-main.ts`). Raw child_process
 * pipes, converted to web streams for the SDK's ndJsonStream.
 */
export function sdkClientToAcpKitAgentProcess(
  options: Pick<TypedConnectionOptions, 'maxQueuedInbound'> = {},
): ClientDriver & { exited: Promise<ChildExit> } {
  const env = { ...process.env };
  if (options.maxQueuedInbound !== undefined)
    env.INTEROP_MAX_QUEUED_INBOUND = String(options.maxQueuedInbound);
  const child = spawn(process.execPath, [...TSX_NODE_ARGS, ACP_KIT_AGENT_SCRIPT], {
    cwd: PACKAGE_DIR,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  // A closed pipe after the child exited is expected during teardown.
  child.stdin.on('error', () => undefined);
  const editor = new FakeEditor();
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = sdkClientApp(editor).connect(stream);
  const driver = sdkClientDriver(editor, connection, async () => {
    connection.close();
    await connection.closed;
    // Ending stdin is how a client asks an ACP agent to go; kill only if it does not.
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  });
  return Object.assign(driver, { exited });
}

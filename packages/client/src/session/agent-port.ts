/**
 * The one interface between sessions and the protocol face of their connection: what a session
 * (and the session opener) asks of an agent, in the model's terms. `protocol-v1/v1-port.ts` and
 * `protocol-v2/v2-port.ts` implement it; nothing above them knows which version is spoken.
 */
import type {
  AcpKitError,
  ContentBlock,
  ListSessionsRequest,
  ListSessionsResponse,
  McpServer,
  StopReason,
} from '@acp-kit/protocol';
import type { AgentUpdate } from '../model/agent-update.js';
import type { SessionConfigOption, SessionModeState } from '../model/content.js';

/** What the agent can do, whatever the version that says so. */
export interface AgentFeatures {
  /** The negotiated protocol version (shown in the connection info and `acp doctor`). */
  protocolVersion: 1 | 2;
  /** Reopen a stored session with its history replayed (v1 `session/load`, v2 resume from the start). */
  load: boolean;
  /** Reopen a stored session without replay. */
  resume: boolean;
  list: boolean;
  close: boolean;
  delete: boolean;
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  /** MCP transports the agent takes; `acp`: MCP-over-ACP (`mcp/message`, unstable, v1 and v2). */
  mcp: { stdio: boolean; http: boolean; sse: boolean; acp: boolean };
  /**
   * Tool calls and terminals can be cancelled one at a time (each advertises whether it can, in
   * its `capabilities.cancel`), without ending the turn.
   */
  cancelOne: boolean;
}

/** Where a session works and which MCP servers it gets. */
export interface SessionSetup {
  cwd: string;
  mcpServers: McpServer[];
  additionalDirectories?: string[];
}

/** What the agent answered when a session was opened. */
export interface OpenedSession {
  /** v1 modes (v2 has none: its `mode` is a config option). */
  modes?: SessionModeState | null;
  configOptions?: SessionConfigOption[] | null;
  /** What else the answer said (v2 answers with the session's commands), to apply once attached. */
  updates?: AgentUpdate[];
}

/** Limits of one request. */
export interface PortRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A session's agent, as the face of the negotiated version presents it. */
export interface AgentPort {
  readonly features: AgentFeatures;
  readonly isClosed: boolean;
  /** Settles with the reason once the connection is closed. */
  readonly closed: Promise<AcpKitError>;
  newSession(
    setup: SessionSetup,
    options?: PortRequestOptions,
  ): Promise<OpenedSession & { sessionId: string }>;
  /** Reopens with the history replayed as updates before it answers. */
  loadSession(sessionId: string, setup: SessionSetup, options?: PortRequestOptions): Promise<OpenedSession>;
  /** Reopens without replay. */
  resumeSession(sessionId: string, setup: SessionSetup, options?: PortRequestOptions): Promise<OpenedSession>;
  listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse>;
  closeSession(sessionId: string, options?: PortRequestOptions): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  /** Sends a prompt; resolves with the stop reason when the turn's foreground work ended. */
  prompt(sessionId: string, prompt: ContentBlock[]): Promise<{ stopReason: StopReason }>;
  /** Stops the session's foreground work (the running prompt ends `cancelled`). */
  cancel(sessionId: string): Promise<void>;
  /** Stops one tool call that advertised `capabilities.cancel`; the turn goes on. */
  cancelToolCall(sessionId: string, toolCallId: string): Promise<void>;
  /** Stops one terminal that advertised `capabilities.cancel`; the turn goes on. */
  cancelTerminal(sessionId: string, terminalId: string): Promise<void>;
  /** A v1 mode; a v2 face sets the `mode` config option. */
  setMode(sessionId: string, modeId: string): Promise<void>;
  setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<SessionConfigOption[]>;
  /** Signs in with an agent-handled method; `meta` goes out as the request's `_meta`. */
  authenticate(
    methodId: string,
    meta: Record<string, unknown> | undefined,
    options?: PortRequestOptions,
  ): Promise<void>;
}

/** The params both versions' `session/new|load|resume` share. */
export function setupParams(setup: SessionSetup): SessionSetup {
  const dirs = setup.additionalDirectories ?? [];
  return {
    cwd: setup.cwd,
    mcpServers: setup.mcpServers,
    ...(dirs.length > 0 ? { additionalDirectories: dirs } : {}),
  };
}

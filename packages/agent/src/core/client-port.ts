/**
 * What the agent core needs from the client, whatever protocol version it speaks: each face
 * (`faces/v1`, `faces/v2`) implements this over its connection. The core never asks which version
 * is spoken; it asks what the client can do ({@link ClientFeatures}, the optional services).
 */
import type { CommandOutcome } from '../tools/command/shell.js';
import type { AgentEvent, ToolCallEvent } from './events.js';
import type { TypedConnection } from '@acp-kit/protocol';

/** What the client can show or do, in the core's terms. */
export interface ClientFeatures {
  /** Boolean config options can be shown. */
  booleanConfigOptions: boolean;
  /** Forms can be shown (`elicitation/create`, form mode). */
  forms: boolean;
  /** The client can start the agent again in a terminal for a login (terminal auth methods). */
  terminalAuth: boolean;
  /**
   * A message can be replaced whole by its id (v2 `agent_message`, `agent_thought`); without it a
   * client only sees text appended (v1 chunks), so an engine should not rewrite what it said.
   */
  messageUpserts: boolean;
  /**
   * The client follows work that outlives the turn (v2's `background` list in every state
   * update); without it a background command shows only as a tool call still streaming.
   */
  backgroundWork: boolean;
}

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionOptionKind;
}

/** A question about a tool call; the client applies `toolCall` as an upsert before asking. */
export interface PermissionQuestion {
  title: string;
  toolCall: Omit<ToolCallEvent, 'type'>;
  options: PermissionOption[];
}

export type PermissionAnswer =
  | {
      outcome: 'selected';
      optionId: string;
      /**
       * Why the client chose this without asking anyone (its policy, a saved rule), when it says so
       * (acp-kit clients: `_meta["acp-kit/decision"]`); undefined when a person answered.
       */
      decidedBy?: string;
    }
  | { outcome: 'cancelled' };

/** A form tied to a request in progress (the setup form of `authenticate` / `auth/login`). */
export interface FormQuestion {
  message: string;
  requestId: string | number;
  /** JSON Schema of the answers (an object of primitive properties). */
  schema: Record<string, unknown>;
}

export interface FormAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/** The client's own file access (v1 `fs/*`): it sees unsaved editor buffers. */
export interface ClientFiles {
  readonly canRead: boolean;
  readonly canWrite: boolean;
  read(
    sessionId: string,
    path: string,
    range: { line?: number; limit?: number },
    signal: AbortSignal,
  ): Promise<string>;
  write(sessionId: string, path: string, content: string, signal: AbortSignal): Promise<void>;
}

export interface ClientTerminalRun {
  sessionId: string;
  commandLine: string;
  cwd: string;
  outputByteLimit: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Called once the terminal exists, to show it in the tool call before anything else. */
  onCreated(terminalId: string): Promise<void>;
}

/** Terminals the client runs and shows (v1 `terminal/*`). */
export interface ClientTerminals {
  /** Runs a command line to its end; rejects with `AbortedError` when `signal` aborts. */
  run(options: ClientTerminalRun): Promise<CommandOutcome>;
}

/** Where one session's events go: the face translates them into its version's updates. */
export interface EventSink {
  /** Whether the client takes `event` at all (a v1 client needs capabilities for some). */
  accepts(event: AgentEvent): boolean;
  send(event: AgentEvent): Promise<void>;
  /** A session's history, sent while it is opened (messages whole, tool calls final). */
  replay(events: readonly AgentEvent[]): Promise<void>;
}

/** One client connection, as the core sees it. */
export interface ClientPort {
  readonly features: ClientFeatures;
  readonly isClosed: boolean;
  /** The sink of a session's events (it keeps what translation needs per session). */
  sink(sessionId: string): EventSink;
  /** Forgets what {@link sink} kept for a session that closed. */
  release(sessionId: string): void;
  requestPermission(
    sessionId: string,
    question: PermissionQuestion,
    signal: AbortSignal,
  ): Promise<PermissionAnswer>;
  askForm(question: FormQuestion, signal: AbortSignal): Promise<FormAnswer>;
  /** The client's files, when it offers them; else the agent reads and writes the disk itself. */
  readonly files?: ClientFiles;
  /** The client's terminals, when it offers them; else commands are the agent's own processes. */
  readonly terminals?: ClientTerminals;
  /**
   * The connection `type: "acp"` MCP servers talk over (`mcp/message`, unstable), when this
   * version's face offers MCP-over-ACP; undefined: such servers fail to start, said to the user.
   */
  readonly mcpConnection?: TypedConnection;
}

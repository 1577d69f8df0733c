/**
 * The agent's own model of what happens in a session, whatever protocol version the client speaks.
 * The turn loop, the tools and the demo emit these events (`Session.emit`); a face per protocol
 * version (`faces/v1`, `faces/v2`) turns them into that version's `session/update`s, and the session
 * log stores them. They follow v2's concepts (messages with ids, upserts with patch semantics,
 * agent-owned terminals with streamed output, foreground state with background work, per-call
 * cancel), because v1 maps into those without loss while the other way round would lose things.
 * The shapes are declared here, not taken from either version's generated wire types.
 */
import type { McpServer as WireMcpServer, UnknownVariant } from '@acp-kit/protocol';

/** Free-form metadata, as ACP's `_meta`. */
export type Meta = Record<string, unknown>;

interface Annotated {
  annotations?: unknown;
  _meta?: Meta | null;
}

/** Displayable content: a prompt's blocks, what the agent says, what a tool shows. */
export type ContentBlock =
  | ({ type: 'text'; text: string } & Annotated)
  | ({ type: 'image'; data: string; mimeType: string; uri?: string | null } & Annotated)
  | ({ type: 'audio'; data: string; mimeType: string } & Annotated)
  | ({
      type: 'resource_link';
      uri: string;
      name: string;
      mimeType?: string | null;
      title?: string | null;
      description?: string | null;
      size?: number | null;
    } & Annotated)
  | ({
      type: 'resource';
      resource: { uri: string; text?: string; blob?: string; mimeType?: string | null };
    } & Annotated)
  /** A block a newer client sent that no version here knows: kept as it came. */
  | UnknownVariant<'type'>;

/** Who a message is from: the user, the agent, or the agent thinking aloud. */
export type MessageRole = 'user' | 'agent' | 'thought';

export type ToolKind =
  'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

export type ToolCallStatus = 'pending' | 'in_progress' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface Location {
  path: string;
  /** 1-based. */
  line?: number | null;
}

/** One file a tool changes. Views render from the texts when they are present, else from `patch`. */
export interface DiffFile {
  path: string;
  operation: 'add' | 'modify' | 'delete' | 'move';
  /** The path before a move. */
  oldPath?: string;
  /** null for a new file. */
  oldText?: string | null;
  newText?: string;
  /** This file's part of a git-style unified patch, when the producer has one. */
  patch?: string;
}

export type ToolContent =
  | { type: 'content'; content: ContentBlock }
  | { type: 'diff'; files: DiffFile[] }
  /** A terminal (see {@link TerminalEvent}) shown in the tool call. */
  | { type: 'terminal'; terminalId: string };

export type PlanEntryStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

export interface PlanEntry {
  content: string;
  priority: 'high' | 'medium' | 'low';
  status: PlanEntryStatus;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled';

/** Work that goes on independently of the foreground (a background command's terminal). */
export type BackgroundItem =
  { type: 'terminal'; terminalId: string } | { type: 'tool_call'; toolCallId: string };

export interface Command {
  name: string;
  description: string;
  /** Shown while the user has not typed the command's input yet. */
  inputHint?: string;
}

export interface ConfigSelectValue {
  value: string;
  name: string;
  description?: string | null;
}

/** A session setting the client can show and change (`mode`, `model`, …). */
export type ConfigOption = {
  id: string;
  name: string;
  description?: string | null;
  category?: 'mode' | 'model' | 'model_config' | 'thought_level' | null;
} & (
  | { type: 'select'; currentValue: string; options: ConfigSelectValue[] }
  | { type: 'boolean'; currentValue: boolean }
);

/** A JSON-RPC error, as an `error` stop reason reports it. */
export interface TurnError {
  code: number;
  message: string;
  data?: unknown;
}

/** Text (a whole message, or an upsert replacing its content) of one message. */
export interface MessageEvent {
  type: 'message';
  role: MessageRole;
  messageId: string;
  content: ContentBlock[];
}

/** One block appended to a message. */
export interface MessageChunkEvent {
  type: 'message_chunk';
  role: MessageRole;
  messageId: string;
  content: ContentBlock;
}

/**
 * An upsert of a tool call: `undefined` leaves a field as it is, `null` resets it to its default,
 * a value replaces it (arrays as a whole).
 */
export interface ToolCallEvent {
  type: 'tool_call';
  toolCallId: string;
  /** A call seen for the first time (v1's `tool_call`): omitted fields take their defaults. */
  isNew?: boolean;
  /** The tool's programmatic name. */
  name?: string | null;
  title?: string | null;
  kind?: ToolKind | null;
  status?: ToolCallStatus | null;
  content?: ToolContent[] | null;
  locations?: Location[] | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  /** Whether the client may cancel this call alone now (v2 `capabilities.cancel`). */
  cancellable?: boolean;
  /** Metadata patch (a v1 log's live-only markers). */
  meta?: Meta | null;
}

/** One content item appended to a tool call. */
export interface ToolCallChunkEvent {
  type: 'tool_call_chunk';
  toolCallId: string;
  content: ToolContent;
}

/**
 * An upsert of a terminal: a process the user can watch. `agent` terminals are our own processes
 * (output streamed as {@link TerminalOutputEvent}s); `client` ones run in a v1 client's terminal
 * (`terminal/create`): the client shows those itself.
 */
export interface TerminalEvent {
  type: 'terminal';
  terminalId: string;
  owner: 'agent' | 'client';
  /** The tool call that started it. */
  toolCallId?: string;
  command?: string;
  cwd?: string;
  /** A replacement snapshot of the retained output (stored for replay; rarely sent). */
  output?: string;
  truncated?: boolean;
  /** Present once the process has ended. */
  exitStatus?: { exitCode: number | null; signal: string | null } | null;
  /** Whether the client may cancel it (v2 `terminal/cancel`). */
  cancellable?: boolean;
  /** Runs in the background (outlives its tool call). */
  background?: boolean;
}

/** Output of an agent terminal, as it arrives (decoded text). */
export interface TerminalOutputEvent {
  type: 'terminal_output';
  terminalId: string;
  data: string;
}

export interface PlanEvent {
  type: 'plan';
  planId: string;
  entries: PlanEntry[];
}

/**
 * Foreground state. `background` is the complete list of background work, present on every state
 * event once the session has reported any.
 */
export type StateEvent = {
  type: 'state';
  background?: BackgroundItem[];
} & (
  | { state: 'running' | 'requires_action' }
  | { state: 'idle'; stopReason?: StopReason | 'error'; error?: TurnError }
);

export interface UsageEvent {
  type: 'usage';
  used: number | null;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

export interface SessionInfoEvent {
  type: 'session_info';
  title?: string | null;
  updatedAt?: string | null;
}

export interface CommandsEvent {
  type: 'commands';
  commands: Command[];
}

export interface ConfigOptionsEvent {
  type: 'config_options';
  options: ConfigOption[];
}

export interface NoticeEvent {
  type: 'notice';
  severity: 'info' | 'warning' | 'error';
  title: string;
  description?: string | null;
}

export interface CompactionEvent {
  type: 'compaction';
  compactionId: string;
  status: 'in_progress' | 'completed' | 'failed' | 'cancelled';
  error?: string | null;
}

export interface CompactionChunkEvent {
  type: 'compaction_chunk';
  compactionId: string;
  content: ContentBlock;
}

/** Everything the core says about a session. */
export type AgentEvent =
  | MessageEvent
  | MessageChunkEvent
  | ToolCallEvent
  | ToolCallChunkEvent
  | TerminalEvent
  | TerminalOutputEvent
  | PlanEvent
  | StateEvent
  | UsageEvent
  | SessionInfoEvent
  | CommandsEvent
  | ConfigOptionsEvent
  | NoticeEvent
  | CompactionEvent
  | CompactionChunkEvent;

/**
 * An MCP server a client hands over: configuration passed on to the MCP SDK, not session content,
 * so it keeps the v1 shape (the v2 face maps its servers into it).
 */
export type McpServer = WireMcpServer;

/** What a prompt may carry besides text and links. */
export interface PromptFeatures {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

/** A way to sign in, offered while the agent is not ready. */
export interface AuthMethod {
  id: string;
  name: string;
  description?: string;
  /** The client runs the agent again with these arguments in a terminal (a terminal login). */
  terminal?: { args: string[] };
}

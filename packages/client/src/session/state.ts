/**
 * The state of one session as a UI shows it: immutable snapshots produced by the reducer.
 * Everything is plain JSON-compatible data, so snapshots can be logged, diffed or sent elsewhere.
 */
import type {
  AvailableCommand,
  ContentBlock,
  Cost,
  PlanEntry,
  SessionConfigOption,
  SessionModeState,
  ToolCallContent,
  ToolCallLocation,
} from '../model/content.js';
import type { BackgroundWork, ForegroundState } from '../model/agent-update.js';
import type { ErrorInfo } from '../errors.js';
import type { DiffPlacement } from './diff-placement.js';
import type { AttachMode, PermissionRequestView } from './events.js';

/** Where a session stands. */
export type SessionStatus = 'idle' | 'running' | 'cancelling' | 'disconnected';

/** A message: consecutive chunks of one role, or all chunks sharing a `messageId`. */
export interface MessageItem {
  kind: 'message';
  /** Stable key for lists (never reused within a session). */
  key: string;
  role: 'user' | 'agent' | 'thought';
  messageId?: string;
  turn: number;
  /**
   * Blocks; consecutive text chunks are merged into text blocks of up to 64 KiB (a longer text
   * goes on in the next block, so that reading what arrived never copies the whole message).
   */
  content: readonly ContentBlock[];
  /** Replayed by the agent on `session/load`. */
  replay?: boolean;
  /** Characters of text dropped from its start by the store's retention (see `SessionRetention`). */
  droppedChars?: number;
}

/** A tool call, with every update merged in. */
export interface ToolCallItem {
  kind: 'tool_call';
  key: string;
  turn: number;
  toolCallId: string;
  title: string;
  /** ACP tool kind (or a newer agent's unknown one). */
  toolKind: string;
  /** Status as the agent reported it. */
  status: string;
  /** Set by the client when the turn was cancelled or failed while the call was open. */
  clientStatus?: 'cancelled' | 'failed';
  content: readonly ToolCallContent[];
  /**
   * Where each diff of `content` is in its file (same indexes; null for other items and new
   * files), when the client looked: snippet diffs are drawn at their real lines.
   */
  diffPlacements?: readonly (DiffPlacement | null)[];
  locations: readonly ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  name?: string;
  /** What the client may do to this call alone (`cancel`: stop it without ending the turn). */
  capabilities?: { cancel?: boolean };
  /** Merged `_meta` of the call and its updates. */
  meta?: Readonly<Record<string, unknown>>;
  /** False when the agent never sent `tool_call` for it (only updates or a permission request). */
  announced: boolean;
  /**
   * Its permission request was allowed: it runs, whether or not the agent says so (some never
   * send `in_progress`).
   */
  allowed?: boolean;
  replay?: boolean;
}

/** Other entries of the transcript. */
export type TranscriptItem =
  | MessageItem
  | ToolCallItem
  | { kind: 'notice'; key: string; turn: number; severity: string; title: string; description?: string }
  | {
      kind: 'compaction';
      key: string;
      turn: number;
      compactionId: string;
      status: string;
      summary: readonly ContentBlock[];
      error?: string;
    }
  | {
      kind: 'permission';
      key: string;
      turn: number;
      request: PermissionRequestView;
      decision: 'allow' | 'deny' | 'cancelled';
      by: string;
      reason?: string;
      optionId?: string;
    }
  | { kind: 'stop'; key: string; turn: number; stopReason: string }
  /** The plan as an earlier turn left it (moved here when the next turn starts). */
  | { kind: 'plan'; key: string; turn: number; entries: readonly PlanEntry[] }
  | { kind: 'error'; key: string; turn: number; error: ErrorInfo }
  | { kind: 'attached'; key: string; turn: number; agentId: string; agentSessionId: string; how: AttachMode }
  | { kind: 'info'; key: string; turn: number; text: string }
  /** An update this client does not know, kept raw with the protocol version it came in. */
  | { kind: 'unknown'; key: string; turn: number; version: number; updateKind: string; update: unknown };

/** A compaction of the context, with its streamed summary. */
export type CompactionItem = Extract<TranscriptItem, { kind: 'compaction' }>;

/** A terminal shown in the session: one we run for the agent, or one the agent runs (`_meta` channel). */
export interface TerminalView {
  terminalId: string;
  origin: 'client' | 'agent';
  command?: string;
  cwd?: string;
  /** The newest output (bounded). */
  output: string;
  truncated: boolean;
  exitStatus?: { exitCode: number | null; signal: string | null };
  released?: boolean;
  /** What the client may do to this terminal alone (`cancel`: stop it). */
  capabilities?: { cancel?: boolean };
  /** The agent reports this terminal's end itself (ACP v2): it does not end with its tool call. */
  reportsExit?: boolean;
  toolCallId?: string;
  /**
   * Of an agent's terminal: the item key of the tool call it was reported for (see
   * `toolCallTerminal`: a later call with the same id gets a terminal of its own).
   */
  toolCallKey?: string;
}

/** One session's state. */
export interface SessionState {
  /** The client's own id of the session (stable across agents and reconnections). */
  localId: string;
  agentId?: string;
  agentName?: string;
  /** The agent's id of the session it is attached to now. */
  agentSessionId?: string;
  attachMode?: AttachMode;
  cwd: string;
  additionalDirectories: readonly string[];
  title?: string;
  updatedAt?: string;
  status: SessionStatus;
  /** Number of prompts sent so far. */
  turn: number;
  items: readonly TranscriptItem[];
  /** Items dropped from the start of `items` by the store's retention; keys continue after them. */
  itemsDropped?: number;
  /** toolCallId → index in `items`. */
  toolCallIndex: Readonly<Record<string, number>>;
  /** `role:messageId` → index in `items`. */
  messageIndex: Readonly<Record<string, number>>;
  /** The current turn's plan (the latest `plan` update); empty once a turn starts without one. */
  plan: readonly PlanEntry[];
  commands: readonly AvailableCommand[];
  modes?: SessionModeState;
  configOptions: readonly SessionConfigOption[];
  usage?: { used: number | null; size: number; cost?: Cost | null };
  terminals: Readonly<Record<string, TerminalView>>;
  /** Questions waiting for an answer. */
  pendingPermissions: readonly PermissionRequestView[];
  /** The agent's foreground state as it last reported it (agents that report one). */
  foreground?: ForegroundState;
  /** The background work the agent last reported (a complete snapshot). */
  background?: BackgroundWork;
  /** Set while a turn has had no traffic for a while. */
  stalled?: { since: number; silentMs: number };
  lastStopReason?: string;
  lastError?: ErrorInfo;
  /** Model updates applied (a wire update may carry several, e.g. a call and its terminal). */
  updateCount: number;
  /** Update variants this client does not know, seen at least once. */
  unknownKinds: readonly string[];
}

/**
 * Version of the state's shape and of what the reducer makes of events. Checkpoints of a record
 * (persistence/checkpoint.ts) made with another version are not used: bump it when either
 * changes, so reopened sessions are replayed again instead of showing an old shape.
 */
export const SESSION_STATE_VERSION = 1;

/** The state of a session nothing has happened to yet. */
export function initialSessionState(
  localId: string,
  cwd: string,
  additionalDirectories: readonly string[] = [],
): SessionState {
  return {
    localId,
    cwd,
    additionalDirectories,
    status: 'idle',
    turn: 0,
    items: [],
    toolCallIndex: {},
    messageIndex: {},
    plan: [],
    commands: [],
    configOptions: [],
    terminals: {},
    pendingPermissions: [],
    updateCount: 0,
    unknownKinds: [],
  };
}

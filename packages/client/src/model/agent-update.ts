/**
 * The client engine's version-neutral model of what an agent reports about a session. Each
 * protocol version has a face (`protocol-v1/`, …) that translates its wire updates into
 * {@link AgentUpdate}s; the store folds these and nothing else, so the store, the transcripts and
 * the UI never ask which version was spoken. The shape follows ACP v2's concepts (ids and upserts
 * with patch semantics, explicit foreground state, terminals with streamed output, per-call
 * cancel) because v1 maps into them without loss and the other direction would lose things.
 */
import type {
  AvailableCommand,
  ContentBlock,
  Cost,
  PlanEntry,
  SessionConfigOption,
  ToolCallContent,
  ToolCallLocation,
} from './content.js';

/** Who a message comes from. */
export type MessageRole = 'user' | 'agent' | 'thought';

/**
 * A tool call's fields, as a patch: `undefined` (absent) leaves a field as it is, `null` resets it
 * to its default. Status and kind are strings: the known values are listed in
 * {@link TOOL_CALL_STATUSES}; a newer agent's are kept as sent.
 */
export interface ToolCallPatch {
  title?: string | null;
  kind?: string | null;
  status?: string | null;
  content?: readonly ToolCallContent[] | null;
  locations?: readonly ToolCallLocation[] | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  name?: string | null;
  /** What the client may do to this call alone (v2: `tool_call/cancel`). */
  capabilities?: { cancel?: boolean } | null;
  /** Extension data (`_meta`), merged into what the call had. */
  meta?: Readonly<Record<string, unknown>>;
}

/** Tool call statuses the model knows (v1's four, v2's `paused` and `cancelled`). */
export const TOOL_CALL_STATUSES = [
  'pending',
  'in_progress',
  'paused',
  'completed',
  'failed',
  'cancelled',
] as const;

/** How a terminal process ended. */
export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

/** Whether the agent is working on the user's behalf right now (v2 `state_update`). */
export type ForegroundState = 'running' | 'requires_action' | 'idle';

/** Work the agent goes on with while the foreground is idle (a complete snapshot each time). */
export interface BackgroundWork {
  terminalIds: readonly string[];
  toolCallIds: readonly string[];
  /** Other work, as the agent describes it. */
  other: readonly string[];
}

/**
 * One change to a session's content or state, whatever the protocol version. `meta` keeps the
 * extension data (`_meta`) the update came with (a tool call's goes into its patch instead).
 */
export type AgentUpdate = AgentUpdateKind & { meta?: Readonly<Record<string, unknown>> };

/** The variants of {@link AgentUpdate}. */
export type AgentUpdateKind =
  /**
   * A piece of a message. Without `messageId` (v1 agents send none) it continues the session's
   * latest item when that is a message of the same role, else starts one.
   */
  | { kind: 'message_chunk'; role: MessageRole; messageId?: string; content: ContentBlock }
  /** A whole message, replacing the content of the message with that id (or inserting it). */
  | { kind: 'message'; role: MessageRole; messageId: string; content: readonly ContentBlock[] }
  /**
   * An upsert of a tool call. `newInstance`: this starts a new call even if the id was used
   * before in an earlier turn (v1's `tool_call`, which some agents number per turn).
   */
  | { kind: 'tool_call'; toolCallId: string; newInstance: boolean; patch: ToolCallPatch }
  /** A piece of content appended to a tool call. */
  | { kind: 'tool_call_chunk'; toolCallId: string; content: ToolCallContent }
  /**
   * An upsert of a terminal the user sees: one the client runs for the agent (`owner: client`)
   * or one the agent runs itself (`owner: agent`). `toolCallId` ties it to the call it was
   * reported for.
   */
  | {
      kind: 'terminal';
      terminalId: string;
      owner: 'client' | 'agent';
      toolCallId?: string;
      command?: string;
      cwd?: string;
      /** A replacement of all the output so far, as text. */
      output?: string;
      exitStatus?: TerminalExit;
      capabilities?: { cancel?: boolean };
      /**
       * The agent reports this terminal's end itself (ACP v2's final `terminal_update`), so it can
       * outlive its tool call; without it (v1's `_meta` channel) a terminal ends with its call.
       */
      reportsExit?: boolean;
    }
  /** Output of a terminal, as text (a face decodes bytes). */
  | { kind: 'terminal_output'; terminalId: string; toolCallId?: string; data: string }
  /** The foreground state; `background` is the complete set of background work when given. */
  | {
      kind: 'foreground';
      state: ForegroundState;
      /** Why foreground work ended (`idle` only): a stop reason, `error` with `error`, or a newer one. */
      stopReason?: string;
      error?: { code: number; message: string; data?: unknown };
      background?: BackgroundWork;
    }
  /** An upsert of a plan (v1 has one per session, with the id {@link V1_PLAN_ID}). */
  | { kind: 'plan'; planId: string; entries: readonly PlanEntry[] }
  | { kind: 'commands'; commands: readonly AvailableCommand[] }
  /** The current mode (v1 modes, kept as an optional capability of the session). */
  | { kind: 'mode'; currentModeId: string }
  | { kind: 'config_options'; configOptions: readonly SessionConfigOption[] }
  /** Session metadata; `undefined` leaves a field, `null` clears it. */
  | { kind: 'session_info'; title?: string | null; updatedAt?: string | null }
  /** Context use; a missing `cost` leaves the total cost as it was. */
  | { kind: 'usage'; used: number | null; size: number; cost?: Cost | null }
  | { kind: 'notice'; severity: string; title: string; description?: string }
  /** An upsert of a context compaction. */
  | {
      kind: 'compaction';
      compactionId: string;
      status?: string;
      /** A complete replacement of the summary. */
      summary?: readonly ContentBlock[];
      error?: string;
    }
  | { kind: 'compaction_chunk'; compactionId: string; content: ContentBlock }
  /** Something this client does not understand, kept raw with the version it came in. */
  | { kind: 'unknown'; version: number; updateKind: string; raw: unknown };

/** The id of the one plan of a v1 session. */
export const V1_PLAN_ID = 'plan';

/** A tool call a permission question is about: its id and what the question says of it. */
export type ToolCallSubject = ToolCallPatch & { toolCallId: string };

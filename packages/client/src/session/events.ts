/**
 * Everything that happens to a session, as data. The store's reducer folds these into
 * {@link SessionState}; the transcript store appends them (minus the ephemeral ones) to disk, and
 * reopening a session replays them.
 */
import type {
  ContentBlock,
  PermissionOption,
  RequestPermissionOutcome,
  SessionConfigOption,
  SessionModeState,
  StopReason,
} from '@acp-kit/protocol';
import type { AgentUpdate, ToolCallSubject } from '../model/agent-update.js';
import type { ErrorInfo } from '../errors.js';
import type { EnvVariable } from '../permissions/env-allow-list.js';
import type { PermissionScope } from '../permissions/rules.js';
import type { ExitStatus } from '../terminal/managed-terminal.js';
import type { DiffPlacement } from './diff-placement.js';

/** How a local session got connected to an agent session. */
export type AttachMode = 'new' | 'load' | 'resume' | 'continuity';

/** A permission question as shown to the user (also recorded in the transcript). */
export interface PermissionRequestView {
  /** Local key of the question (unique within the session). */
  key: string;
  source: 'permission_request' | 'fs_read' | 'fs_write' | 'terminal';
  kind: string;
  title?: string;
  toolCallId?: string;
  /** The options the agent offered (permission requests only). */
  options?: PermissionOption[];
  paths: string[];
  /** The command line, whole. */
  command?: string;
  /** The working directory the command asks for (absolute), when it names one. */
  commandCwd?: string;
  /**
   * The environment variables the command sets, with their values (records at rest keep the
   * names only: values are redacted like every `env`).
   */
  env?: EnvVariable[];
  outsideRoots: boolean;
  secret: boolean;
  /** The file has other hard links, which may be outside the roots (treated as outside). */
  hardLinked?: boolean;
  /** The names among {@link env} off the allow list: what needs an explicit answer. */
  sensitiveEnv?: string[];
  /** Why the policy asks (or decided). */
  reason: string;
}

/** Events of a session. `at` is a millisecond timestamp. */
export type SessionEvent =
  | {
      type: 'attached';
      at: number;
      agentId: string;
      agentName?: string;
      agentSessionId: string;
      how: AttachMode;
      cwd: string;
      additionalDirectories: string[];
      modes?: SessionModeState | null;
      configOptions?: SessionConfigOption[] | null;
    }
  | {
      type: 'update';
      at: number;
      update: AgentUpdate;
      replay?: boolean;
      /** In a transcript: how many consecutive chunks of one message this event merges (≥ 2). */
      merged?: number;
      /** Where the diffs of the update's `content` are in their files (see `placeDiffs`). */
      diffPlacements?: (DiffPlacement | null)[];
    }
  | { type: 'prompt'; at: number; turn: number; prompt: ContentBlock[] }
  | { type: 'turn_end'; at: number; turn: number; stopReason: StopReason }
  | { type: 'turn_failed'; at: number; turn: number; error: ErrorInfo }
  | { type: 'cancel_requested'; at: number; turn: number }
  | {
      type: 'permission_requested';
      at: number;
      request: PermissionRequestView;
      toolCall?: ToolCallSubject;
      /** Where the diffs of `toolCall.content` are in their files (see `placeDiffs`). */
      diffPlacements?: (DiffPlacement | null)[];
    }
  | {
      type: 'permission_resolved';
      at: number;
      key: string;
      decision: 'allow' | 'deny' | 'cancelled';
      /** What was sent to the agent (permission requests only). */
      outcome?: RequestPermissionOutcome;
      by: 'rule' | 'session-rule' | 'grant' | 'default' | 'user' | 'cancel';
      reason?: string;
      scope?: PermissionScope;
    }
  | { type: 'mode_set'; at: number; modeId: string }
  | { type: 'config_options_set'; at: number; configOptions: SessionConfigOption[] }
  | { type: 'terminal_started'; at: number; terminalId: string; command: string; cwd: string }
  | { type: 'terminal_output'; at: number; terminalId: string; data: string }
  | {
      type: 'terminal_exited';
      at: number;
      terminalId: string;
      exitStatus: ExitStatus;
      output: string;
      truncated: boolean;
    }
  | { type: 'terminal_released'; at: number; terminalId: string }
  | { type: 'agent_exited'; at: number; error: ErrorInfo }
  | { type: 'stalled'; at: number; silentMs: number }
  | { type: 'activity'; at: number }
  | { type: 'elicitation'; at: number; message: string; action: string }
  | { type: 'title_set'; at: number; title: string };

/** Event types that are not written to the transcript (derivable or transient). */
export const EPHEMERAL_EVENTS: ReadonlySet<SessionEvent['type']> = new Set([
  'terminal_output',
  'stalled',
  'activity',
]);

/** View models for transcript entries: messages, notices and what ended a turn. */
import type { ContentBlock, PlanEntry, StopReason } from '@acp-kit/protocol';
import type { ToolCallView } from './tool-call.js';

/** Who a message is from. Thoughts are the agent's reasoning, shown folded. */
export type MessageRole = 'user' | 'agent' | 'thought';

/** One message: the content blocks of all chunks that share its message id, in order. */
export interface TranscriptMessage {
  readonly id: string;
  readonly role: MessageRole;
  readonly content: readonly ContentBlock[];
  /** Chunks are still arriving. */
  readonly streaming?: boolean;
  /** Set on the last agent message of a turn: how the turn ended. */
  readonly stopReason?: StopReason;
}

/** Severity of a notice. */
export type NoticeSeverity = 'info' | 'warning' | 'error';

/** Something the client or agent tells the user outside the conversation (an exit, a notice). */
export interface TranscriptNotice {
  readonly id: string;
  readonly severity: NoticeSeverity;
  readonly text: string;
  /** Extra lines such as the agent's last stderr lines. */
  readonly detail?: string;
}

/** One item of the transcript. */
export type TranscriptItem =
  | { readonly type: 'message'; readonly id: string; readonly message: TranscriptMessage }
  | { readonly type: 'tool_call'; readonly id: string; readonly call: ToolCallView }
  | { readonly type: 'plan'; readonly id: string; readonly entries: readonly PlanEntry[] }
  | { readonly type: 'notice'; readonly id: string; readonly notice: TranscriptNotice };

/**
 * What the application embedding the engine provides: a way to ask the user. A headless host
 * provides nothing, and then whatever the policy would ask is denied, elicitations are declined
 * and writes are made as the agent asked (after the policy allowed them).
 */
import type {
  CompleteElicitationNotification,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ToolCallUpdate,
} from '@acp-kit/protocol';
import type { PermissionRequestView } from '../session/events.js';
import type { ProposedDiff } from '../permissions/approved-writes.js';
import type { PermissionScope, PermissionSubject } from '../permissions/rules.js';

/** A question for the user. */
export interface PermissionAsk extends PermissionRequestView {
  /** The client's id of the session. */
  localId: string;
  agentId: string;
  /** The tool call as the agent sent it in the request. */
  toolCall?: ToolCallUpdate;
  /**
   * What the policy evaluated: the input of {@link rememberedRule}, which tells the rule an answer
   * with a remembered scope would create.
   */
  subject: PermissionSubject;
  /**
   * The file changes the question is about, to show and review hunk by hunk: the diffs of the
   * agent's tool call (paths absolute), or, when the engine asks about an `fs/write_text_file`
   * itself, the write (the file's current text → the content; not for paths outside the roots,
   * secrets or hard-linked files). Allowing them counts as reviewing them: the writes that carry
   * them out are not shown again (see {@link ClientHost.writeReviewMode}).
   */
  diffs?: ProposedDiff[];
  /** Aborted when the question no longer needs an answer (turn cancelled, agent gone). */
  signal: AbortSignal;
}

/** The user's answer. */
export interface PermissionAnswer {
  decision: 'allow' | 'deny';
  /** How long to remember it (default `once`). */
  scope?: PermissionScope;
  /** The exact option the user picked among those the agent offered (permission requests only). */
  optionId?: string;
  /**
   * After a hunk-by-hunk review of the question's {@link PermissionAsk.diffs}, allowing: for each
   * diff, in order, its text with only the hunks the user accepted (its `newText` when all were).
   * The write that carries a diff out then writes exactly that, and the agent is told the rest was
   * rejected. Omitted: the diffs are approved as shown.
   */
  acceptedTexts?: string[];
}

/**
 * An `fs/write_text_file` to review before it reaches the disk. The path checks and the permission
 * policy have already allowed it.
 */
export interface WriteReview {
  /** The client's id of the session that writes. */
  localId: string;
  agentId: string;
  /** Where the write lands: the real path (parent directories resolved, never a link). */
  path: string;
  /** The current content (an editor's unsaved buffer when the fs overlay serves one); null for a new file. */
  oldText: string | null;
  /** What the agent wants the file to hold. */
  newText: string;
  /** Aborted when the review no longer matters (turn cancelled, request cancelled, agent gone). */
  signal: AbortSignal;
}

/**
 * The answer to a {@link WriteReview}: write what the agent asked (`accept`), write exactly
 * `content` instead (`partial`: the agent gets an error saying so, with `message`), or write
 * nothing (`reject`: the agent gets an error naming `reason`).
 */
export type WriteReviewAnswer =
  | { decision: 'accept' }
  | {
      decision: 'partial';
      /** The whole file as it must be written (e.g. only the accepted hunks applied). */
      content: string;
      /** What the agent is told, in a sentence or two (default: a generic explanation). */
      message?: string;
    }
  | { decision: 'reject'; reason: string };

/**
 * When {@link ClientHost.reviewWrite} sees a write: `always` — every write, even one the user just
 * allowed with its diff; `changed` — unless it is exactly what the user allowed with its diff in a
 * permission question of the same turn (the default: each change is looked at once); `never` — no
 * review after the permission (hunks rejected in the permission question still are not written).
 */
export type WriteReviewMode = 'always' | 'changed' | 'never';

/** Where an elicitation comes from. */
export interface ElicitationOrigin {
  /** The catalog id of the agent asking. */
  agentId: string;
  /** The client's id of the session it names (absent for a request about no known session). */
  localId?: string;
}

/**
 * Callbacks into the application (UI, editor, bot).
 *
 * @example
 * const host: ClientHost = {
 *   askPermission: async (ask) => ((await ui.confirm(ask.title ?? ask.kind)) ? { decision: 'allow' } : { decision: 'deny' }),
 *   reviewWrite: async (write) => ((await ui.reviewDiff(write)) ? { decision: 'accept' } : { decision: 'reject', reason: 'rejected by the user' }),
 * };
 */
export interface ClientHost {
  /** Asks the user; without it, questions are answered "deny" (headless). */
  askPermission?(ask: PermissionAsk): Promise<PermissionAnswer>;
  /**
   * Reviews a file write the policy allowed, before it is made; without it, writes are made as
   * asked. Not called when the content would not change, nor (see {@link writeReviewMode}) when the
   * user allowed exactly this change with its diff in the permission question.
   */
  reviewWrite?(write: WriteReview): Promise<WriteReviewAnswer>;
  /** When {@link reviewWrite} is called (read at each write; default `changed`). */
  writeReviewMode?(): WriteReviewMode;
  /**
   * Form elicitation; without it, every elicitation is declined (headless). `origin` says which
   * agent asks and, for a session-scoped request of a known session, which session.
   */
  elicit?(
    request: CreateElicitationRequest,
    signal: AbortSignal,
    origin: ElicitationOrigin,
  ): Promise<CreateElicitationResponse>;
  /** URL elicitation finished (informational). */
  elicitationComplete?(notification: CompleteElicitationNotification): void;
}

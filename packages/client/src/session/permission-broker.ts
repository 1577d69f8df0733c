/**
 * Answers a session's permission questions — `session/request_permission` from the agent, and
 * the policy checks of fs and terminal calls — with the policy, grants, and the user when the
 * policy says "ask". Every question and answer is recorded in the session's store.
 *
 * Questions for the user are asked one at a time, a bounded number waiting (past it: answered
 * `cancelled`); a question still open when its turn ends (the agent did not await it) is withdrawn.
 */
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  ToolCallContent,
  ToolCallContent as WireToolCallContent,
  ToolCallUpdate,
} from '@acp-kit/protocol';
import type { PermissionAnswer, WriteReview, WriteReviewAnswer } from '../agent/host.js';
import type { PendingWrite } from '../fs/fs-service.js';
import { approveDiffs, diffsOfContent, type ProposedDiff } from '../permissions/approved-writes.js';
import { decisionOfOption, normalizeOptions, outcomeFor } from '../permissions/options.js';
import { SessionPermissions } from '../permissions/policy.js';
import { answerDecision, rememberedRule } from '../permissions/remember.js';
import type { PermissionScope, PermissionSubject } from '../permissions/rules.js';
import { shellScript, simpleArgv } from '../permissions/shell-words.js';
import { subjectFromToolCall } from '../permissions/subject.js';
import type { PermissionRequestView, SessionEvent } from './events.js';
import { isFileChange } from '../model/content.js';
import { toolCallPatchFromV1 } from '../protocol-v1/from-v1-update.js';
import { diffsToPlaceIn, type DiffPlacement } from './diff-placement.js';
import { QuestionQueue } from './question-queue.js';
import type { SessionLink } from './session-link.js';
import type { SessionState, ToolCallItem } from './state.js';

type Final = {
  decision: 'allow' | 'deny' | 'cancelled';
  by: Extract<SessionEvent, { type: 'permission_resolved' }>['by'];
  reason: string;
  scope?: PermissionScope;
  optionId?: string;
  /** The user's hunk review of the question's diffs (see `PermissionAnswer.acceptedTexts`). */
  acceptedTexts?: unknown[];
};

/**
 * The `_meta` key of a permission answer the client chose without asking the user:
 * `{ by: "rule" | "session-rule" | "grant" | "default", reason }` (acp-kit's agent reads it).
 */
export const DECISION_META_KEY = 'acp-kit/decision';

/** A decided question, and the diffs it showed the user. */
interface Decided {
  final: Final;
  /** Undefined when the question was not recorded (too many were waiting). */
  key: string | undefined;
  shown?: readonly ProposedDiff[];
}

/** An open question or write review, and the turn it belongs to. */
interface Pending {
  controller: AbortController;
  turn: number;
}

/** The permission side of a session. */
export class PermissionBroker {
  readonly permissions = new SessionPermissions();
  private readonly pending = new Map<string, Pending>();
  private readonly queue = new QuestionQueue();
  private counter = 0;

  constructor(
    private readonly localId: string,
    private readonly getState: () => SessionState,
    private readonly dispatch: (event: SessionEvent) => void,
    /** Places snippet diffs in their files, as the session does for its tool calls' updates. */
    private readonly place: (
      content: readonly ToolCallContent[],
    ) => Promise<readonly (DiffPlacement | null)[] | undefined> = () => Promise.resolve(undefined),
  ) {}

  /** Answers `session/request_permission`. */
  async requestPermission(
    link: SessionLink,
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const state = this.getState();
    const known = this.knownToolCall(params.toolCall.toolCallId);
    const subject = subjectFromToolCall(params.toolCall, known, {
      agentId: link.agent.id,
      cwd: state.cwd,
      roots: [state.cwd, ...state.additionalDirectories],
    });
    // Only unambiguous options, a bounded number: every answer below picks among these.
    const { options, problems } = normalizeOptions(params.options);
    for (const problem of problems) link.diagnostic?.(problem);
    const content = params.toolCall.content ?? known?.content ?? [];
    // Placed once, for every view of them: the question, its hunk review, the card it starts.
    const placements = diffsToPlaceIn(content) ? await this.place(content) : undefined;
    const diffs = diffsOfContent(content, state.cwd, placements);
    const { final, key, shown } = await this.decide(link, subject, {
      options,
      toolCall: params.toolCall,
      signal,
      ...(diffs.length > 0 ? { diffs: async () => diffs } : {}),
      ...(placements && params.toolCall.content ? { diffPlacements: [...placements] } : {}),
    });
    let decision = final.decision;
    let reason = final.reason;
    let outcome: RequestPermissionResponse['outcome'];
    const chosen =
      final.optionId !== undefined ? options.find((o) => o.optionId === final.optionId) : undefined;
    if (decision === 'cancelled') {
      outcome = { outcome: 'cancelled' };
    } else if (chosen) {
      outcome = { outcome: 'selected', optionId: chosen.optionId };
      const meaning = decisionOfOption(chosen);
      if (meaning !== 'unknown') decision = meaning;
    } else {
      const mapped = outcomeFor(options, decision);
      outcome = mapped.outcome;
      if (decision === 'allow' && !mapped.allowed) {
        decision = 'deny';
        reason = 'the agent offered no option to allow it';
      }
    }
    if (decision === 'allow') {
      const argv = subject.command ? simpleArgv(subject.command) : undefined;
      const script = subject.command ? shellScript(subject.command) : undefined;
      this.permissions.addGrant({
        kind: subject.kind,
        paths: subject.paths,
        shownPaths: subject.shownPaths ?? subject.paths,
        turn: state.turn,
        ...(argv ? { argv } : {}),
        ...(script !== undefined ? { script } : {}),
        ...(subject.env ? { env: subject.env } : {}),
      });
      this.approve(final, shown, state.turn);
    }
    this.resolved(key, { ...final, decision, reason }, outcome);
    // Nobody was asked (a policy, a rule, a grant): the agent may tell its user, or its model, so.
    if (final.by !== 'user' && outcome.outcome === 'selected')
      return { outcome, _meta: { [DECISION_META_KEY]: { by: final.by, reason } } };
    return { outcome };
  }

  /**
   * The policy check of an fs or terminal call; resolves true to go ahead. An fs write the user is
   * asked about shows its change (inside the roots, not a secret), and allowing it approves it.
   */
  async authorize(link: SessionLink, subject: PermissionSubject, write?: PendingWrite): Promise<boolean> {
    const showable = !subject.outsideRoots && subject.hardLinked !== true && !subject.secret;
    const path = subject.paths[0];
    const diffs =
      write && showable && path !== undefined
        ? async (): Promise<ProposedDiff[]> => {
            const oldText = await write.currentText();
            return oldText === undefined ? [] : [{ path, oldText, newText: write.newText }];
          }
        : undefined;
    const { final, key, shown } = await this.decide(link, subject, diffs ? { diffs } : {});
    if (final.decision === 'allow') this.approve(final, shown, this.getState().turn);
    this.resolved(key, final);
    return final.decision === 'allow';
  }

  /** Remembers the diffs a user's "allow" approved, with the hunks they accepted. */
  private approve(final: Final, shown: readonly ProposedDiff[] | undefined, turn: number): void {
    if (final.by !== 'user' || !shown || shown.length === 0) return;
    this.permissions.addApproval(turn, approveDiffs(shown, final.acceptedTexts));
  }

  /** Records the answer to a recorded question (`key` undefined: it was not recorded). */
  private resolved(
    key: string | undefined,
    final: Final,
    outcome?: RequestPermissionResponse['outcome'],
  ): void {
    if (key === undefined) return;
    this.dispatch({
      type: 'permission_resolved',
      at: Date.now(),
      key,
      decision: final.decision,
      ...(outcome ? { outcome } : {}),
      by: final.by,
      reason: final.reason,
      ...(final.scope ? { scope: final.scope } : {}),
    });
  }

  /**
   * Decides what an allowed write writes: what the user approved with its diff in a permission
   * question of this turn (not shown again unless the host's mode is `always`), else the host's
   * review (`ClientHost.reviewWrite`, unless the mode is `never`). The review is withdrawn, and the
   * write rejected, when the turn is cancelled, `signal` aborts, or the agent leaves.
   */
  async reviewWrite(
    link: SessionLink,
    write: Pick<WriteReview, 'path' | 'oldText' | 'newText'> & { requestedPath?: string },
    signal: AbortSignal | undefined,
  ): Promise<WriteReviewAnswer> {
    const mode = link.host.writeReviewMode?.() ?? 'changed';
    const paths = [write.path, ...(write.requestedPath !== undefined ? [write.requestedPath] : [])];
    const approved = this.permissions.approvedWrite(
      paths,
      this.getState().turn,
      write.oldText,
      write.newText,
    );
    const review = link.host.reviewWrite;
    if ((approved !== undefined && mode !== 'always') || mode === 'never' || !review) {
      return approved === undefined || approved === write.newText
        ? { decision: 'accept' }
        : { decision: 'partial', content: approved };
    }
    const key = `write-${++this.counter}`;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort('the agent cancelled the request');
    if (signal?.aborted) onAbort();
    else if (this.getState().status === 'cancelling') controller.abort('the turn was cancelled');
    if (controller.signal.aborted) return { decision: 'reject', reason: String(controller.signal.reason) };
    this.pending.set(key, { controller, turn: this.getState().turn });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await raceAbort(
        review.call(link.host, {
          path: write.path,
          oldText: write.oldText,
          newText: write.newText,
          localId: this.localId,
          agentId: link.agent.id,
          signal: controller.signal,
        }),
        controller.signal,
      );
      return answer ?? { decision: 'reject', reason: String(controller.signal.reason) };
    } catch (error) {
      const why = error instanceof Error ? `: ${error.message.slice(0, 200)}` : '';
      return { decision: 'reject', reason: `the review failed${why}` };
    } finally {
      this.pending.delete(key);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Answers every open question with "cancelled" and withdraws every open write review (the turn
   * was cancelled or the agent left); `reason` is what a withdrawn write is rejected with.
   */
  cancelAll(reason = 'the turn was cancelled'): void {
    for (const { controller } of this.pending.values()) controller.abort(reason);
    this.pending.clear();
  }

  /**
   * Grants end with their turn, and so do the questions and reviews of that turn still open: the
   * agent did not await them, so they are withdrawn (answered `cancelled`, the host's signal aborts).
   */
  endTurn(turn: number): void {
    this.permissions.endTurn(turn);
    for (const [key, { controller, turn: asked }] of this.pending) {
      if (asked > turn) continue;
      controller.abort('the turn ended before it was answered');
      this.pending.delete(key);
    }
  }

  private knownToolCall(toolCallId: string): Partial<ToolCallUpdate> | undefined {
    const state = this.getState();
    const index = state.toolCallIndex[toolCallId];
    const item = index === undefined ? undefined : (state.items[index] as ToolCallItem);
    if (!item) return undefined;
    return {
      title: item.title,
      kind: item.toolKind as ToolCallUpdate['kind'],
      locations: [...item.locations],
      content: item.content.filter((content): content is WireToolCallContent => !isFileChange(content)),
      rawInput: item.rawInput,
    };
  }

  /**
   * Decides a question. `key` is undefined when it was not recorded: too many questions were
   * waiting for the host, and it is answered `cancelled` at once. `diffs` are read only when the
   * user is asked, and shown with the question.
   */
  private async decide(
    link: SessionLink,
    subject: PermissionSubject,
    about: {
      options?: RequestPermissionRequest['options'];
      toolCall?: ToolCallUpdate;
      signal?: AbortSignal;
      diffs?: () => Promise<ProposedDiff[]>;
      /** Where the diffs of `toolCall.content` are in their files. */
      diffPlacements?: (DiffPlacement | null)[];
    },
  ): Promise<Decided> {
    const { options, toolCall, signal } = about;
    const state = this.getState();
    const verdict = link.policy.evaluate(subject, this.permissions, state.turn);
    const cancelled = state.status === 'cancelling' || signal?.aborted === true;
    const ask = link.host.askPermission;
    if (!cancelled && verdict.action === 'ask' && ask && this.queue.full) {
      link.diagnostic?.(
        `more than ${this.queue.limit} permission questions were waiting for an answer; the agent's further questions were answered "cancelled"`,
      );
      return {
        key: undefined,
        final: { decision: 'cancelled', by: 'default', reason: 'too many permission questions are waiting' },
      };
    }
    const key = String(++this.counter);
    const view: PermissionRequestView = {
      key,
      source: subject.source,
      kind: subject.kind,
      paths: subject.paths,
      outsideRoots: subject.outsideRoots,
      secret: subject.secret,
      ...(subject.hardLinked ? { hardLinked: true } : {}),
      reason: verdict.reason,
      ...(subject.title ? { title: subject.title } : {}),
      ...(subject.toolCallId ? { toolCallId: subject.toolCallId } : {}),
      ...(options ? { options } : {}),
      ...(subject.commandText ? { command: subject.commandText } : {}),
      ...(subject.commandCwd !== undefined ? { commandCwd: subject.commandCwd } : {}),
      ...(subject.env ? { env: subject.env } : {}),
      ...(subject.sensitiveEnv ? { sensitiveEnv: subject.sensitiveEnv } : {}),
    };
    this.dispatch({
      type: 'permission_requested',
      at: Date.now(),
      request: view,
      ...(toolCall
        ? { toolCall: { toolCallId: toolCall.toolCallId, ...toolCallPatchFromV1(toolCall) } }
        : {}),
      ...(toolCall && about.diffPlacements ? { diffPlacements: about.diffPlacements } : {}),
    });
    if (cancelled) {
      return { key, final: { decision: 'cancelled', by: 'cancel', reason: 'the turn was cancelled' } };
    }
    if (verdict.action !== 'ask') {
      return { key, final: { decision: verdict.action, by: verdict.by, reason: verdict.reason } };
    }
    if (!ask)
      return {
        key,
        final: { decision: 'deny', by: 'default', reason: `${verdict.reason}; nobody can answer (headless)` },
      };
    const controller = new AbortController();
    this.pending.set(key, { controller, turn: state.turn });
    const onAbort = (): void => controller.abort('the agent withdrew the question');
    signal?.addEventListener('abort', onAbort, { once: true });
    const withdrawn = (): Decided => ({
      key,
      final: { decision: 'cancelled', by: 'cancel', reason: String(controller.signal.reason) },
    });
    try {
      if (!(await this.queue.enter(controller.signal))) return withdrawn();
      try {
        const diffs = (await about.diffs?.().catch(() => [])) ?? [];
        const answer = await raceAbort(
          ask.call(link.host, {
            ...view,
            localId: this.localId,
            agentId: link.agent.id,
            ...(toolCall ? { toolCall } : {}),
            subject,
            ...(diffs.length > 0 ? { diffs } : {}),
            signal: controller.signal,
          }),
          controller.signal,
        );
        if (answer === undefined) return withdrawn();
        return { key, final: await this.applyAnswer(link, subject, answer, options), shown: diffs };
      } finally {
        this.queue.leave();
      }
    } catch {
      return { key, final: { decision: 'deny', by: 'user', reason: 'the question could not be answered' } };
    } finally {
      this.pending.delete(key);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async applyAnswer(
    link: SessionLink,
    subject: PermissionSubject,
    answer: PermissionAnswer,
    options: RequestPermissionRequest['options'] | undefined,
  ): Promise<Final> {
    const { decision, optionId } = answerDecision(answer, options);
    const scope = answer.scope ?? 'once';
    let reason = decision === 'allow' ? 'allowed by you' : 'denied by you';
    if (scope !== 'once') {
      // The very function a UI calls to show the rule before the user answers.
      const rule = rememberedRule({ subject, ...(options ? { options } : {}) }, answer);
      if (!rule) reason += ` (not remembered: a compound command or several paths cannot be a rule)`;
      else if (scope === 'session') this.permissions.addRule(rule);
      else if (link.ruleStore) await link.ruleStore.add(rule);
    }
    return {
      decision,
      by: 'user',
      reason,
      scope,
      ...(optionId !== undefined ? { optionId } : {}),
      ...(Array.isArray(answer.acceptedTexts) ? { acceptedTexts: answer.acceptedTexts } : {}),
    };
  }
}

/** Resolves with the promise's value, or undefined once `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

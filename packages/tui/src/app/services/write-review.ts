/**
 * Hunk-by-hunk review of the agent's `fs/write_text_file` calls, plugged into the engine as
 * `ClientHost.reviewWrite`: the engine has already checked the path (inside the roots, not a link,
 * permission granted), skipped what the user allowed with its diff in the permission question
 * (settings `reviewWrites`, the host's `writeReviewMode`), and tells which session writes. The
 * user accepts or rejects each hunk; the engine writes exactly the accepted result, and answers a
 * partly or wholly rejected write with an error that says what happened.
 */
import type { WriteReview, WriteReviewAnswer } from '@acp-kit/client';
import { computeReviewHunks } from '../../diff/review-hunks.js';
import type { HunkReviewResult } from '../../review/useHunkReview.js';
import type { AppStore } from '../state/app-store.js';

/** How a review ended: the user's decisions, or the whole write rejected (Esc, turn cancelled). */
export type ReviewOutcome =
  | { readonly kind: 'reviewed'; readonly result: HunkReviewResult }
  | { readonly kind: 'rejected'; readonly reason: string };

/** Options of {@link WriteReviewService}. */
export interface WriteReviewOptions {
  readonly store: AppStore;
  /** The tab showing the session with this local id. */
  readonly tabFor: (localId: string) => string | undefined;
}

/** The engine's answer for a finished review. */
export function reviewAnswer(outcome: ReviewOutcome): WriteReviewAnswer {
  if (outcome.kind === 'rejected') return { decision: 'reject', reason: outcome.reason };
  const { summary, content } = outcome.result;
  if (summary.rejected === 0) return { decision: 'accept' };
  if (summary.nothingToWrite) return { decision: 'reject', reason: 'the user rejected every change' };
  return { decision: 'partial', content, message: summary.message };
}

/**
 * The review queue. Use {@link reviewWrite} as the engine host's `reviewWrite`.
 *
 * @example
 * const reviews = new WriteReviewService({ store, tabFor });
 * const client = await AcpClient.create({
 *   host: { reviewWrite: reviews.reviewWrite, writeReviewMode: () => settings.reviewWrites },
 * });
 */
export class WriteReviewService {
  private readonly waiting = new Map<string, { tabId: string; resolve: (outcome: ReviewOutcome) => void }>();
  private counter = 0;

  constructor(private readonly options: WriteReviewOptions) {}

  /** `ClientHost.reviewWrite`: queues the write for its session's tab until the user answers. */
  readonly reviewWrite = async (write: WriteReview): Promise<WriteReviewAnswer> => {
    const { path, oldText, newText, signal } = write;
    if (computeReviewHunks(oldText ?? '', newText).length === 0) {
      return { decision: 'accept' };
    }
    const id = `w${++this.counter}`;
    const tabId = this.options.tabFor(write.localId) ?? '';
    const withdraw = (): void => this.answer(id, { kind: 'rejected', reason: 'the review was withdrawn' });
    const outcome = await new Promise<ReviewOutcome>((resolve) => {
      if (signal.aborted) {
        resolve({ kind: 'rejected', reason: 'the review was withdrawn' });
        return;
      }
      this.waiting.set(id, { tabId, resolve });
      signal.addEventListener('abort', withdraw, { once: true });
      this.options.store.dispatch({ type: 'review_queued', review: { id, tabId, path, oldText, newText } });
    });
    signal.removeEventListener('abort', withdraw);
    return reviewAnswer(outcome);
  };

  /** Answers a queued review. */
  answer(id: string, outcome: ReviewOutcome): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    this.waiting.delete(id);
    this.options.store.dispatch({ type: 'review_removed', id });
    entry.resolve(outcome);
  }

  /** Rejects every review of a tab (the tab closed, or its agent is restarted). */
  rejectTab(tabId: string, reason: string): void {
    for (const [id, entry] of [...this.waiting]) {
      if (entry.tabId === tabId) this.answer(id, { kind: 'rejected', reason });
    }
  }
}

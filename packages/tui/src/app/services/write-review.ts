/**
 * Hunk-by-hunk review of the agent's `fs/write_text_file` calls, plugged into the engine as an
 * fs overlay: the engine has already checked the path (inside the roots, not a link, permission
 * granted) when it hands us the write. The user accepts or rejects each hunk; the file written is
 * exactly the accepted result, and a partly or wholly rejected write answers the agent with an
 * error that says what happened.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ClientError, type FsOverlay } from '@acp-kit/client';
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
  /** The tab a write to `path` belongs to. */
  readonly tabFor: (path: string) => string | undefined;
  /** Whether writes are reviewed (settings `reviewWrites`). */
  readonly enabled: () => boolean;
}

async function currentText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Replaces `path` with `content` through a temp file in the same directory (atomic rename). */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  const temp = join(dirname(path), `.${basename(path)}.acp-review-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
  try {
    try {
      if (existing) await handle.chmod(existing.mode & 0o7777);
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * The review queue. Use {@link overlay} as the engine's `fs.overlay`.
 *
 * @example
 * const reviews = new WriteReviewService({ store, tabFor, enabled: () => settings.reviewWrites });
 * const client = await AcpClient.create({ fs: { overlay: reviews.overlay } });
 */
export class WriteReviewService {
  private readonly waiting = new Map<string, { tabId: string; resolve: (outcome: ReviewOutcome) => void }>();
  private counter = 0;

  constructor(private readonly options: WriteReviewOptions) {}

  /** The engine hook: resolves false to let the engine write as asked, true when handled here. */
  readonly overlay: FsOverlay = {
    write: (path, content) => this.review(path, content),
  };

  /** Answers a queued review. */
  answer(id: string, outcome: ReviewOutcome): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    this.waiting.delete(id);
    this.options.store.dispatch({ type: 'review_removed', id });
    entry.resolve(outcome);
  }

  /** Rejects every review of a tab (its turn was cancelled, or the tab closed). */
  rejectTab(tabId: string, reason: string): void {
    for (const [id, entry] of [...this.waiting]) {
      if (entry.tabId === tabId) this.answer(id, { kind: 'rejected', reason });
    }
  }

  private async review(path: string, content: string): Promise<boolean> {
    if (!this.options.enabled()) return false;
    const oldText = await currentText(path);
    if (oldText === content || computeReviewHunks(oldText ?? '', content).length === 0) return false;
    const id = `w${++this.counter}`;
    const tabId = this.options.tabFor(path) ?? '';
    const outcome = await new Promise<ReviewOutcome>((resolve) => {
      this.waiting.set(id, { tabId, resolve });
      this.options.store.dispatch({
        type: 'review_queued',
        review: { id, tabId, path, oldText, newText: content },
      });
    });
    if (outcome.kind === 'rejected') {
      throw new ClientError(
        'PERMISSION_DENIED',
        `The write to ${path} was rejected (${outcome.reason}); the file was not changed.`,
        {
          path,
        },
      );
    }
    const { summary, content: accepted } = outcome.result;
    if (summary.rejected === 0) return false;
    if (!summary.nothingToWrite) await writeFileAtomic(path, accepted);
    throw new ClientError('PERMISSION_DENIED', summary.message, {
      path,
      accepted: summary.accepted,
      rejected: summary.rejected,
    });
  }
}

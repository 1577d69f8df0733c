import { useMemo, useReducer, useRef } from 'react';
import { useInput } from 'ink';
import { useActionMatcher } from '../keys/KeyBindingsContext.js';
import {
  applyHunkDecisions,
  computeReviewHunks,
  summarizeHunkDecisions,
  type HunkDecision,
  type HunkReviewSummary,
  type ReviewHunk,
} from '../diff/review-hunks.js';
import {
  hunkReviewReducer,
  initialHunkReview,
  undecidedHunks,
  type HunkReviewState,
} from './hunk-review-state.js';
import type { DiffPlacementView } from '../view-model/tool-call.js';

/** The outcome of a review: what to write and what to tell the agent. */
export interface HunkReviewResult {
  readonly decisions: readonly HunkDecision[];
  /** The file content with exactly the accepted hunks applied. */
  readonly content: string;
  readonly summary: HunkReviewSummary;
}

/** Options of {@link useHunkReview}. */
export interface HunkReviewOptions {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string;
  readonly onSubmit: (result: HunkReviewResult) => void;
  readonly onCancel?: () => void;
  readonly isActive: boolean;
  /** Where `oldText` is in the file, when it is a part of it (see `computeReviewHunks`). */
  readonly placement?: DiffPlacementView | null;
}

/** Hunks, review state and keyboard handling of a hunk review. */
export function useHunkReview({
  path,
  oldText,
  newText,
  onSubmit,
  onCancel,
  isActive,
  placement,
}: HunkReviewOptions): {
  hunks: readonly ReviewHunk[];
  state: HunkReviewState;
} {
  const before = oldText ?? '';
  const hunks = useMemo(
    () => computeReviewHunks(before, newText, 3, placement),
    [before, newText, placement],
  );
  const [state, dispatch] = useReducer(hunkReviewReducer, hunks.length, initialHunkReview);
  const done = useRef(false);
  const is = useActionMatcher();
  // Keys can arrive before Ink registers the handler of the latest render: read state from here.
  const latest = useRef(state);
  latest.current = state;

  useInput(
    (input, key) => {
      if (done.current) return;
      if (is('review.next', input, key)) dispatch({ type: 'next' });
      else if (is('review.previous', input, key)) dispatch({ type: 'previous' });
      else if (is('review.acceptAll', input, key)) dispatch({ type: 'decideAll', decision: 'accept' });
      else if (is('review.rejectAll', input, key)) dispatch({ type: 'decideAll', decision: 'reject' });
      else if (is('review.accept', input, key)) dispatch({ type: 'decide', decision: 'accept' });
      else if (is('review.reject', input, key)) dispatch({ type: 'decide', decision: 'reject' });
      else if (is('review.cancel', input, key) && onCancel) {
        done.current = true;
        onCancel();
      } else if (is('review.submit', input, key)) {
        const state = latest.current;
        if (undecidedHunks(state).length > 0) {
          dispatch({ type: 'submitBlocked' });
          return;
        }
        const decisions = state.decisions.map((d): HunkDecision => d ?? 'reject');
        done.current = true;
        onSubmit({
          decisions,
          content: applyHunkDecisions(before, newText, decisions),
          summary: summarizeHunkDecisions(path, hunks, decisions),
        });
      }
    },
    { isActive },
  );
  return { hunks, state };
}

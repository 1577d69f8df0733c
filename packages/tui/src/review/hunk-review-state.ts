/** State of a hunk review: one decision per hunk (or none yet) and the focused hunk. */
import type { HunkDecision } from '../diff/review-hunks.js';

/** Review state. */
export interface HunkReviewState {
  readonly decisions: readonly (HunkDecision | undefined)[];
  readonly focus: number;
  /** A message for the user (for example why Enter did not write yet). */
  readonly notice?: string;
}

/** What the user can do. */
export type HunkReviewAction =
  | { readonly type: 'next' }
  | { readonly type: 'previous' }
  | { readonly type: 'decide'; readonly decision: HunkDecision }
  | { readonly type: 'decideAll'; readonly decision: HunkDecision }
  | { readonly type: 'submitBlocked' };

/** A fresh review of `count` hunks. */
export function initialHunkReview(count: number): HunkReviewState {
  return { decisions: Array.from({ length: count }, () => undefined), focus: 0 };
}

/** Indexes of hunks without a decision. */
export function undecidedHunks(state: HunkReviewState): number[] {
  return state.decisions.flatMap((d, i) => (d === undefined ? [i] : []));
}

/**
 * The review reducer. Deciding a hunk moves the focus to the next undecided hunk, so a review is
 * a run of y/n presses; Enter with hunks left undecided focuses the first of them.
 */
export function hunkReviewReducer(state: HunkReviewState, action: HunkReviewAction): HunkReviewState {
  const count = state.decisions.length;
  if (count === 0) return state;
  switch (action.type) {
    case 'next':
      return { decisions: state.decisions, focus: Math.min(count - 1, state.focus + 1) };
    case 'previous':
      return { decisions: state.decisions, focus: Math.max(0, state.focus - 1) };
    case 'decide': {
      const decisions = state.decisions.map((d, i) => (i === state.focus ? action.decision : d));
      const after = [...decisions.keys()].map((k) => (state.focus + 1 + k) % count);
      const nextUndecided = after.find((i) => decisions[i] === undefined);
      return { decisions, focus: nextUndecided ?? state.focus };
    }
    case 'decideAll':
      return { decisions: state.decisions.map(() => action.decision), focus: state.focus };
    case 'submitBlocked': {
      const open = undecidedHunks(state);
      if (open.length === 0) return state;
      return {
        decisions: state.decisions,
        focus: open[0] ?? state.focus,
        notice: `${open.length} ${open.length === 1 ? 'hunk is' : 'hunks are'} still undecided.`,
      };
    }
  }
}

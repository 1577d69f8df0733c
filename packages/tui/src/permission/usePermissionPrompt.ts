import { useEffect, useMemo, useRef, useState } from 'react';
import { useInput } from 'ink';
import type { PermissionOption } from '@acp-kit/protocol';
import { useActionMatcher } from '../keys/KeyBindingsContext.js';
import { arrangePermissionOptions, type ShownOption } from './permission-options.js';

/** Options of {@link usePermissionPrompt}. */
export interface PermissionPromptOptions {
  readonly options: readonly PermissionOption[];
  readonly onSelect: (optionId: string) => void;
  readonly isActive: boolean;
  /** Keys arriving this soon after the prompt opened are ignored (typed for something else). */
  readonly armDelayMs: number;
  readonly now: () => number;
  /** Opens the hunk-by-hunk review of the question's changes (when it has some). */
  readonly onReviewHunks?: () => void;
}

/** State the prompt renders. */
export interface PermissionPromptState {
  readonly shown: readonly ShownOption[];
  /** Index into `shown`, or null: nothing is focused until the user moves the focus. */
  readonly focus: number | null;
  readonly hint?: string;
  /** The typeahead guard has passed: keys now answer (shown, so people know when to type). */
  readonly armed: boolean;
}

/**
 * Keyboard handling of a permission prompt. Focus starts on no option, so Enter alone answers
 * nothing; arrows move the focus, digits and kind letters answer directly. Keys pressed within
 * `armDelayMs` of the prompt appearing were meant for the composer and are ignored.
 */
export function usePermissionPrompt({
  options,
  onSelect,
  isActive,
  armDelayMs,
  now,
  onReviewHunks,
}: PermissionPromptOptions): PermissionPromptState {
  const shown = useMemo(() => arrangePermissionOptions(options), [options]);
  const [focus, setFocusState] = useState<number | null>(null);
  // Keys can arrive before Ink registers the handler of the latest render: focus lives in a ref too.
  const focusRef = useRef<number | null>(null);
  const setFocus = (next: (current: number | null) => number | null): void => {
    focusRef.current = next(focusRef.current);
    setFocusState(focusRef.current);
  };
  const [hint, setHint] = useState<string | undefined>();
  const openedAt = useRef<number | null>(null);
  openedAt.current ??= now();
  const answered = useRef(false);
  const is = useActionMatcher();
  const [armed, setArmed] = useState(armDelayMs <= 0);
  useEffect(() => {
    if (armed) return undefined;
    const timer = setTimeout(() => setArmed(true), armDelayMs);
    return () => clearTimeout(timer);
  }, [armed, armDelayMs]);

  const answer = (entry: ShownOption | undefined): void => {
    if (!entry || answered.current) return;
    answered.current = true;
    onSelect(entry.option.optionId);
  };

  useInput(
    (input, key) => {
      if (answered.current) return;
      if (now() - (openedAt.current ?? 0) < armDelayMs) {
        setHint('Keys pressed as this prompt opened were ignored.');
        return;
      }
      const count = shown.length;
      if (onReviewHunks && is('permission.reviewHunks', input, key)) onReviewHunks();
      else if (count === 0) return;
      else if (is('permission.next', input, key)) {
        setFocus((f) => (f === null ? 0 : (f + 1) % count));
        setHint(undefined);
      } else if (is('permission.previous', input, key)) {
        setFocus((f) => (f === null ? count - 1 : (f - 1 + count) % count));
        setHint(undefined);
      } else if (is('permission.confirm', input, key)) {
        const focused = focusRef.current;
        if (focused === null) setHint('Nothing is selected: choose with ↑/↓ or press a shortcut.');
        else answer(shown[focused]);
      } else if (/^[1-9]$/.test(input) && !key.ctrl && !key.meta) {
        answer(shown[Number(input) - 1]);
      } else {
        answer(shown.find((entry) => entry.letterAction && is(entry.letterAction, input, key)));
      }
    },
    { isActive },
  );
  return { shown, focus, hint, armed };
}

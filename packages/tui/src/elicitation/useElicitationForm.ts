import { useEffect, useRef, useState } from 'react';
import { useInput } from 'ink';
import { useActionMatcher } from '../keys/KeyBindingsContext.js';
import type { FormField } from './form-fields.js';
import { formKey, initialFormState, type FormOutcome, type FormState } from './form-state.js';

/** Options of {@link useElicitationForm}. */
export interface ElicitationFormOptions {
  readonly fields: readonly FormField[];
  /** Called once, with the user's answer. */
  readonly onAnswer: (outcome: FormOutcome) => void;
  /** The form as the user left it (switching tabs hides it), instead of a fresh one. */
  readonly draft?: FormState | undefined;
  /** Called with every change, so the form can be restored as it was. */
  readonly onDraft?: ((state: FormState) => void) | undefined;
  readonly isActive: boolean;
  /** Keys arriving this soon after the form opened are ignored (typed for the composer). */
  readonly armDelayMs: number;
  readonly now: () => number;
}

/** What the form renders. */
export interface ElicitationFormView {
  readonly state: FormState;
  /** The typeahead guard has passed: keys now work. */
  readonly armed: boolean;
  readonly hint?: string;
}

/**
 * State and keyboard handling of a form elicitation. A form that pops up while the user types
 * must not take the rest of a prompt, or its Enter as a submit: keys typed within `armDelayMs`
 * of the form opening are ignored, as in the permission prompt.
 */
export function useElicitationForm({
  fields,
  onAnswer,
  draft,
  onDraft,
  isActive,
  armDelayMs,
  now,
}: ElicitationFormOptions): ElicitationFormView {
  const is = useActionMatcher();
  const [state, setState] = useState(() =>
    draft && draft.values.length === fields.length ? draft : initialFormState(fields),
  );
  // Keys can arrive before Ink registers the handler of the latest render: the state lives in a ref too.
  const latest = useRef(state);
  const openedAt = useRef<number | null>(null);
  openedAt.current ??= now();
  const answered = useRef(false);
  const [armed, setArmed] = useState(armDelayMs <= 0);
  const [hint, setHint] = useState<string | undefined>();
  useEffect(() => {
    if (armed) return undefined;
    const timer = setTimeout(() => setArmed(true), armDelayMs);
    return () => clearTimeout(timer);
  }, [armed, armDelayMs]);

  useInput(
    (input, key) => {
      if (answered.current) return;
      if (now() - (openedAt.current ?? 0) < armDelayMs) {
        setHint('Keys pressed as this form opened were ignored.');
        return;
      }
      setHint(undefined);
      const step = formKey(fields, latest.current, input, key, is);
      if (step.state !== latest.current) {
        latest.current = step.state;
        setState(step.state);
        onDraft?.(step.state);
      }
      if (step.outcome) {
        answered.current = true;
        onAnswer(step.outcome);
      }
    },
    { isActive },
  );
  return hint === undefined ? { state, armed } : { state, armed, hint };
}

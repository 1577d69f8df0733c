/**
 * Keyboard handling of a form elicitation as a pure function of the form's state: moving between
 * fields and the Submit / Decline / Cancel buttons, editing text, ticking choices, and the three
 * outcomes of `elicitation/create` (accept with content, decline, cancel). Accepting is possible
 * only when every field passes its checks.
 */
import type { Key } from 'ink';
import type { ElicitationContentValue } from '@acp-kit/protocol';
import {
  deleteBackward,
  deleteForward,
  deleteToLineEdge,
  deleteWordBackward,
  insertText,
  moveHorizontal,
  moveToLineEdge,
  type TextBuffer,
} from '../composer/buffer.js';
import type { ActionMatcher } from '../keys/KeyBindingsContext.js';
import { initialValue, oneLine, type FieldValue, type FormField } from './form-fields.js';
import { checkField, checkForm, isBlank } from './form-validation.js';

/** The buttons under the fields, in order. */
export const FORM_BUTTONS = ['submit', 'decline', 'cancel'] as const;
export type FormButton = (typeof FORM_BUTTONS)[number];

/** A form being filled in. */
export interface FormState {
  /** One value per field, in field order. */
  readonly values: readonly FieldValue[];
  /** The focused field; `fields.length` is the row of buttons. */
  readonly focus: number;
  /** The focused button (index into {@link FORM_BUTTONS}) when the row of buttons has the focus. */
  readonly button: number;
  /** The error shown beside each field. */
  readonly errors: readonly (string | undefined)[];
  /** Why the last submit did not go through. */
  readonly notice?: string;
}

/** How the user answered. */
export type FormOutcome =
  | { readonly action: 'accept'; readonly content: Record<string, ElicitationContentValue> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The state after a key, and the answer when the key gave one. */
export interface FormStep {
  readonly state: FormState;
  readonly outcome?: FormOutcome;
}

/** The form as it opens: defaults filled in, the first field focused (the buttons when there is none). */
export function initialFormState(fields: readonly FormField[]): FormState {
  return { values: fields.map(initialValue), focus: 0, button: 0, errors: fields.map(() => undefined) };
}

function replaceAt<T>(items: readonly T[], index: number, item: T): T[] {
  return items.map((current, i) => (i === index ? item : current));
}

/** Checks the field being left: its error shows, but an untouched empty field is not nagged about. */
function leave(fields: readonly FormField[], state: FormState): FormState {
  const field = fields[state.focus];
  const value = state.values[state.focus];
  if (!field || !value) return state;
  const result = checkField(field, value);
  const quiet = isBlank(value) && state.errors[state.focus] === undefined;
  const error = result.ok || quiet ? undefined : result.error;
  return { ...state, errors: replaceAt(state.errors, state.focus, error) };
}

function moveFocus(fields: readonly FormField[], state: FormState, delta: 1 | -1): FormState {
  const stops = fields.length + 1;
  return { ...leave(fields, state), focus: (state.focus + delta + stops) % stops };
}

function submit(fields: readonly FormField[], state: FormState): FormStep {
  const result = checkForm(fields, state.values);
  if (result.ok)
    return { state: { ...state, notice: undefined }, outcome: { action: 'accept', content: result.content } };
  const first = result.errors.findIndex((error) => error !== undefined);
  const stuck = fields.some((field, i) => field.kind === 'unsupported' && result.errors[i] !== undefined);
  const failing = result.errors.filter((error) => error !== undefined).length;
  const notice = stuck
    ? 'This form asks for something acp cannot fill in: decline or cancel it'
    : `Fix the ${failing === 1 ? 'field' : `${failing} fields`} marked ✗, then submit again`;
  return { state: { ...state, errors: result.errors, focus: first, notice } };
}

function editText(buffer: TextBuffer, input: string, key: Key): TextBuffer {
  if (key.leftArrow) return moveHorizontal(buffer, -1);
  if (key.rightArrow) return moveHorizontal(buffer, 1);
  if (key.home || (key.ctrl && input === 'a')) return moveToLineEdge(buffer, 'start');
  if (key.end || (key.ctrl && input === 'e')) return moveToLineEdge(buffer, 'end');
  if ((key.backspace || key.delete) && key.meta) return deleteWordBackward(buffer);
  if (key.backspace || key.delete) return deleteBackward(buffer);
  if (key.ctrl && input === 'd') return deleteForward(buffer);
  if (key.ctrl && input === 'w') return deleteWordBackward(buffer);
  if (key.ctrl && input === 'u') return deleteToLineEdge(buffer, 'start');
  if (key.ctrl && input === 'k') return deleteToLineEdge(buffer, 'end');
  if (key.ctrl || key.meta || key.escape || key.tab || key.return || input === '') return buffer;
  const text = oneLine(input);
  return text === '' ? buffer : insertText(buffer, text);
}

/** ←/→ through the choices of a single select; an optional one can go back to no choice. */
function cycle(index: number | undefined, choices: number, required: boolean, delta: 1 | -1) {
  const stops: (number | undefined)[] = [
    ...(required ? [] : [undefined]),
    ...Array.from({ length: choices }, (_, i) => i),
  ];
  const at = stops.indexOf(index);
  if (at < 0) return delta > 0 ? stops[0] : stops[stops.length - 1];
  return stops[(at + delta + stops.length) % stops.length];
}

function editField(
  field: FormField,
  value: FieldValue,
  input: string,
  key: Key,
  is: ActionMatcher,
): FieldValue {
  const direction = key.leftArrow ? -1 : key.rightArrow ? 1 : 0;
  switch (value.kind) {
    case 'text': {
      const buffer = editText(value.buffer, input, key);
      return buffer === value.buffer ? value : { kind: 'text', buffer };
    }
    case 'boolean':
      return is('form.toggle', input, key) ? { kind: 'boolean', checked: !value.checked } : value;
    case 'select': {
      if (field.kind !== 'select' || direction === 0 || field.choices.length === 0) return value;
      return { kind: 'select', index: cycle(value.index, field.choices.length, field.required, direction) };
    }
    case 'multiselect': {
      const last = value.chosen.length - 1;
      if (direction !== 0 && last >= 0)
        return { ...value, focus: Math.min(last, Math.max(0, value.focus + direction)) };
      if (is('form.toggle', input, key) && last >= 0)
        return { ...value, chosen: replaceAt(value.chosen, value.focus, !value.chosen[value.focus]) };
      return value;
    }
    case 'none':
      return value;
  }
}

function press(fields: readonly FormField[], state: FormState): FormStep {
  const button: FormButton = FORM_BUTTONS[state.button] ?? 'submit';
  if (button === 'submit') return submit(fields, state);
  return { state, outcome: { action: button } };
}

/**
 * Applies one key to the form. `is` tests the key against the key map (`form.*` actions); ←/→ and
 * the editing keys of text fields are fixed, as in the composer.
 *
 * @example
 * const step = formKey(fields, state, input, key, is);
 * if (step.outcome) answer(step.outcome); else setState(step.state);
 */
export function formKey(
  fields: readonly FormField[],
  state: FormState,
  input: string,
  key: Key,
  is: ActionMatcher,
): FormStep {
  const onButtons = state.focus >= fields.length;
  if (is('form.cancel', input, key)) return { state, outcome: { action: 'cancel' } };
  if (is('form.decline', input, key)) return { state, outcome: { action: 'decline' } };
  if (is('form.submit', input, key)) return submit(fields, state);
  if (is('form.next', input, key)) return { state: moveFocus(fields, state, 1) };
  if (is('form.previous', input, key)) return { state: moveFocus(fields, state, -1) };
  if (is('form.confirm', input, key)) {
    if (onButtons) return press(fields, state);
    return state.focus === fields.length - 1 ? submit(fields, state) : { state: moveFocus(fields, state, 1) };
  }
  if (onButtons) {
    const direction = key.leftArrow ? -1 : key.rightArrow ? 1 : 0;
    const button = Math.min(FORM_BUTTONS.length - 1, Math.max(0, state.button + direction));
    return { state: button === state.button ? state : { ...state, button } };
  }
  const field = fields[state.focus];
  const value = state.values[state.focus];
  if (!field || !value) return { state };
  const next = editField(field, value, input, key, is);
  if (next === value) return { state };
  const values = replaceAt(state.values, state.focus, next);
  // A field showing an error is checked again as it is edited, so the error goes once it is fixed.
  const shown = state.errors[state.focus];
  if (shown === undefined) return { state: { ...state, values } };
  const result = checkField(field, next);
  const errors = replaceAt(state.errors, state.focus, result.ok ? undefined : result.error);
  const notice = errors.some((error) => error !== undefined) ? state.notice : undefined;
  return { state: { ...state, values, errors, notice } };
}

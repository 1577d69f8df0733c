/**
 * Checks a form elicitation's values against its schema and builds the answer's `content`. A
 * value is sent only when it passes every constraint the schema states (required, type, range,
 * length, pattern, format, choices); where a check cannot be made (an invalid pattern), the value
 * is refused rather than sent unchecked.
 */
import type { ElicitationContentValue } from '@acp-kit/protocol';
import type { FieldValue, FormField } from './form-fields.js';

/** What a field contributes to the answer. */
export type FieldResult =
  /** `value` undefined: the field is left out of the content. */
  | { readonly ok: true; readonly value: ElicitationContentValue | undefined }
  | { readonly ok: false; readonly error: string };

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// The HTML living standard's "valid e-mail address": stricter than RFC 5321, never looser.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// RFC 3986 absolute URI: a scheme, then only URI characters, `%` always followed by two hex digits.
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** What each known string format looks like, for hints and errors. */
export const FORMAT_HINTS: Readonly<Record<string, string>> = {
  email: 'name@example.com',
  uri: 'https://…',
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDThh:mm:ssZ',
};

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

function validDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match || !validDate(match[1] ?? '')) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  const offsetOk = match[5] === undefined || (Number(match[5]) <= 23 && Number(match[6]) <= 59);
  return hour <= 23 && minute <= 59 && second <= 59 && offsetOk;
}

/** Whether `text` has the string format `format`; unknown formats are not checked. */
export function matchesFormat(format: string, text: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(text);
    case 'uri':
      return URI.test(text);
    case 'date':
      return validDate(text);
    case 'date-time':
      return validDateTime(text);
    default:
      return true;
  }
}

const patterns = new Map<string, RegExp | null>();

/** The schema's pattern as a regular expression (ECMA-262, unanchored); null when it is invalid. */
function compilePattern(pattern: string): RegExp | null {
  let compiled = patterns.get(pattern);
  if (compiled !== undefined) return compiled;
  try {
    compiled = new RegExp(pattern, 'u');
  } catch {
    try {
      compiled = new RegExp(pattern);
    } catch {
      compiled = null;
    }
  }
  if (patterns.size > 100) patterns.clear();
  patterns.set(pattern, compiled);
  return compiled;
}

const shown = (pattern: string): string => (pattern.length > 60 ? `${pattern.slice(0, 59)}…` : pattern);
const characters = (n: number): string => `${n} character${n === 1 ? '' : 's'}`;

function checkText(field: Extract<FormField, { kind: 'text' }>, text: string): FieldResult {
  if (text === '') return field.required ? { ok: false, error: 'Required' } : { ok: true, value: undefined };
  // JSON Schema counts lengths in code points.
  const length = [...text].length;
  if (field.minLength !== undefined && length < field.minLength)
    return { ok: false, error: `At least ${characters(field.minLength)}` };
  if (field.maxLength !== undefined && length > field.maxLength)
    return { ok: false, error: `At most ${characters(field.maxLength)}` };
  if (field.format !== undefined && !matchesFormat(field.format, text)) {
    const hint = FORMAT_HINTS[field.format];
    return { ok: false, error: `Not a valid ${field.format}${hint ? ` (${hint})` : ''}` };
  }
  if (field.pattern !== undefined) {
    const regex = compilePattern(field.pattern);
    if (!regex)
      return { ok: false, error: 'The agent’s pattern for this field is invalid: it cannot be checked' };
    if (!regex.test(text)) return { ok: false, error: `Must match ${shown(field.pattern)}` };
  }
  return { ok: true, value: text };
}

function checkNumber(field: Extract<FormField, { kind: 'number' | 'integer' }>, text: string): FieldResult {
  const trimmed = text.trim();
  if (trimmed === '')
    return field.required ? { ok: false, error: 'Required' } : { ok: true, value: undefined };
  const value = NUMBER.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(value)) return { ok: false, error: 'Not a number' };
  if (field.kind === 'integer' && !Number.isSafeInteger(value))
    return { ok: false, error: 'Not a whole number' };
  if (field.minimum !== undefined && value < field.minimum)
    return { ok: false, error: `At least ${field.minimum}` };
  if (field.maximum !== undefined && value > field.maximum)
    return { ok: false, error: `At most ${field.maximum}` };
  return { ok: true, value };
}

/**
 * Checks one field's value.
 *
 * @example
 * checkField({ name: 'n', title: 'n', required: true, kind: 'integer', maximum: 9 }, value);
 * // { ok: false, error: 'At most 9' } for "12"
 */
export function checkField(field: FormField, value: FieldValue): FieldResult {
  switch (field.kind) {
    case 'text':
      return checkText(field, value.kind === 'text' ? value.buffer.text : '');
    case 'number':
    case 'integer':
      return checkNumber(field, value.kind === 'text' ? value.buffer.text : '');
    case 'boolean':
      return { ok: true, value: value.kind === 'boolean' && value.checked };
    case 'select': {
      const choice =
        value.kind === 'select' && value.index !== undefined ? field.choices[value.index] : undefined;
      if (choice) return { ok: true, value: choice.value };
      return field.required ? { ok: false, error: 'Choose one' } : { ok: true, value: undefined };
    }
    case 'multiselect': {
      const chosen = field.choices.filter((_, i) => value.kind === 'multiselect' && value.chosen[i]);
      if (chosen.length === 0 && !field.required) return { ok: true, value: undefined };
      // "Required" means at least one choice; minItems may ask for more.
      const min = Math.max(field.required ? 1 : 0, field.minItems ?? 0);
      if (chosen.length < min) return { ok: false, error: `Choose at least ${min}` };
      if (field.maxItems !== undefined && chosen.length > field.maxItems)
        return { ok: false, error: `Choose at most ${field.maxItems}` };
      return { ok: true, value: chosen.map((c) => c.value) };
    }
    case 'unsupported':
      return field.required
        ? { ok: false, error: `acp cannot fill in a field of type "${field.type}"` }
        : { ok: true, value: undefined };
  }
}

/** Whether the user has entered nothing in a field (its missing value is reported only on submit). */
export function isBlank(value: FieldValue): boolean {
  if (value.kind === 'text') return value.buffer.text.trim() === '';
  if (value.kind === 'select') return value.index === undefined;
  if (value.kind === 'multiselect') return !value.chosen.some(Boolean);
  return false;
}

/** The answer's content, or the error of each field that fails (by index). */
export type FormResult =
  | { readonly ok: true; readonly content: Record<string, ElicitationContentValue> }
  | { readonly ok: false; readonly errors: readonly (string | undefined)[] };

/** Checks every field; the content holds exactly the fields that have a value. */
export function checkForm(fields: readonly FormField[], values: readonly FieldValue[]): FormResult {
  const entries: [string, ElicitationContentValue][] = [];
  const errors = fields.map((field, i) => {
    const result = checkField(field, values[i] ?? { kind: 'none' });
    if (!result.ok) return result.error;
    if (result.value !== undefined) entries.push([field.name, result.value]);
    return undefined;
  });
  if (errors.some((e) => e !== undefined)) return { ok: false, errors };
  // fromEntries defines own properties: a field named "__proto__" stays a field.
  return { ok: true, content: Object.fromEntries(entries) };
}

/**
 * The fields of a form elicitation (`elicitation/create`, `mode: "form"`), read from the agent's
 * `requestedSchema`, and the values the user edits. The schema is agent-controlled: every part of
 * it is checked before use, and what this UI cannot edit becomes an `unsupported` field.
 */
import type { ElicitationSchema } from '@acp-kit/protocol';
import type { TextBuffer } from '../composer/buffer.js';
import { sanitizeText } from '../sanitize/sanitize-text.js';

/** One choice of a single- or multi-select field. */
export interface FormChoice {
  readonly value: string;
  readonly title: string;
  readonly description?: string;
}

interface FieldBase {
  /** The property name (the key of the answer). */
  readonly name: string;
  /** The property's title, else its name (agent-controlled: sanitize when drawn). */
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A string field, free text. */
export interface TextField extends FieldBase {
  readonly kind: 'text';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly default?: string;
}

/** A `number` or `integer` field, typed as text. */
export interface NumberField extends FieldBase {
  readonly kind: 'number' | 'integer';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: number;
}

export interface BooleanField extends FieldBase {
  readonly kind: 'boolean';
  readonly default?: boolean;
}

/** A string with `enum` or `oneOf`: one choice. */
export interface SelectField extends FieldBase {
  readonly kind: 'select';
  readonly choices: readonly FormChoice[];
  readonly default?: string;
}

/** An `array` of enum strings: any number of choices. */
export interface MultiSelectField extends FieldBase {
  readonly kind: 'multiselect';
  readonly choices: readonly FormChoice[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: readonly string[];
}

/** A property of a type this UI cannot edit (a newer schema's type, an array without choices). */
export interface UnsupportedField extends FieldBase {
  readonly kind: 'unsupported';
  readonly type: string;
}

export type FormField =
  TextField | NumberField | BooleanField | SelectField | MultiSelectField | UnsupportedField;

/** What the user has entered in one field. */
export type FieldValue =
  | { readonly kind: 'text'; readonly buffer: TextBuffer }
  | { readonly kind: 'boolean'; readonly checked: boolean }
  /** Index into the choices; undefined: nothing chosen. */
  | { readonly kind: 'select'; readonly index: number | undefined }
  /** `chosen[i]` for choice i; `focus` is the choice Space toggles. */
  | { readonly kind: 'multiselect'; readonly chosen: readonly boolean[]; readonly focus: number }
  | { readonly kind: 'none' };

type Json = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** Choices from `oneOf`/`anyOf` (`{const, title}`) or `enum` (strings); duplicates keep the first. */
function choicesOf(titled: unknown, plain: unknown): FormChoice[] {
  const out: FormChoice[] = [];
  const seen = new Set<string>();
  const add = (value: string, title: string, description?: string): void => {
    if (seen.has(value)) return;
    seen.add(value);
    out.push({ value, title, description });
  };
  if (Array.isArray(titled)) {
    for (const option of titled) {
      if (isRecord(option) && typeof option.const === 'string')
        add(option.const, text(option.title) ?? option.const, text(option.description));
    }
  } else if (Array.isArray(plain)) {
    for (const value of plain) if (typeof value === 'string') add(value, value);
  }
  return out;
}

function fieldOf(name: string, property: unknown, required: boolean): FormField {
  const p = isRecord(property) ? property : {};
  const base = { name, title: text(p.title) ?? name, description: text(p.description), required };
  const type = typeof p.type === 'string' ? p.type : '';
  switch (type) {
    case 'string': {
      const choices = choicesOf(p.oneOf, p.enum);
      if (Array.isArray(p.oneOf) || Array.isArray(p.enum)) {
        const fallback = typeof p.default === 'string' ? p.default : undefined;
        const initial = choices.some((c) => c.value === fallback) ? fallback : undefined;
        return { ...base, kind: 'select', choices, default: initial };
      }
      return {
        ...base,
        kind: 'text',
        minLength: count(p.minLength),
        maxLength: count(p.maxLength),
        pattern: typeof p.pattern === 'string' ? p.pattern : undefined,
        format: text(p.format),
        default: typeof p.default === 'string' ? p.default : undefined,
      };
    }
    case 'number':
    case 'integer': {
      const fallback = finite(p.default);
      const usable = type === 'number' || (fallback !== undefined && Number.isSafeInteger(fallback));
      return {
        ...base,
        kind: type,
        minimum: finite(p.minimum),
        maximum: finite(p.maximum),
        default: usable ? fallback : undefined,
      };
    }
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : undefined };
    case 'array': {
      const items = isRecord(p.items) ? p.items : {};
      const hasChoices = Array.isArray(items.anyOf) || (items.type === 'string' && Array.isArray(items.enum));
      if (!hasChoices) return { ...base, kind: 'unsupported', type: 'array' };
      const choices = choicesOf(items.anyOf, items.enum);
      const values = new Set(choices.map((c) => c.value));
      const initial = Array.isArray(p.default)
        ? p.default.filter((v): v is string => typeof v === 'string' && values.has(v))
        : undefined;
      return {
        ...base,
        kind: 'multiselect',
        choices,
        minItems: count(p.minItems),
        maxItems: count(p.maxItems),
        default: initial,
      };
    }
    default:
      return { ...base, kind: 'unsupported', type: type || 'unknown' };
  }
}

/**
 * The fields of a requested schema, in the schema's property order.
 *
 * @example
 * formFields({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
 * // [{ name: 'name', title: 'name', required: true, kind: 'text' }]
 */
export function formFields(schema: ElicitationSchema): FormField[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : [],
  );
  return Object.entries(properties).map(([name, property]) => fieldOf(name, property, required.has(name)));
}

/** Text for a one-line field: control sequences removed, line breaks and tabs become spaces. */
export function oneLine(text: string): string {
  return sanitizeText(text).replace(/[\r\n\t]+/g, ' ');
}

/** A field's value before the user changed it: its default, else empty. */
export function initialValue(field: FormField): FieldValue {
  switch (field.kind) {
    case 'text': {
      // What is shown is what is sent: the agent's default loses control sequences and line breaks.
      const value = oneLine(field.default ?? '');
      return { kind: 'text', buffer: { text: value, cursor: value.length } };
    }
    case 'number':
    case 'integer': {
      const value = field.default === undefined ? '' : String(field.default);
      return { kind: 'text', buffer: { text: value, cursor: value.length } };
    }
    case 'boolean':
      return { kind: 'boolean', checked: field.default ?? false };
    case 'select': {
      const index = field.choices.findIndex((c) => c.value === field.default);
      return { kind: 'select', index: index < 0 ? undefined : index };
    }
    case 'multiselect': {
      const chosen = new Set(field.default ?? []);
      return { kind: 'multiselect', chosen: field.choices.map((c) => chosen.has(c.value)), focus: 0 };
    }
    case 'unsupported':
      return { kind: 'none' };
  }
}

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Key } from 'ink';
import type { ElicitationSchema } from '@acp-kit/protocol';
import { DEFAULT_KEY_BINDINGS } from '../keys/key-bindings.js';
import type { ActionMatcher } from '../keys/KeyBindingsContext.js';
import { matchesKey } from '../keys/key-spec.js';
import { CORPUS_DEPLOY_FORM } from '../test-support/elicitation-schemas.js';
import { inkKey } from '../test-support/key.js';
import { formFields, initialValue, type FieldValue, type FormField } from './form-fields.js';
import { fieldHint, fieldRows, fieldWindow, formLayout, textWindow, wrapText } from './form-layout.js';
import { checkField, checkForm, matchesFormat } from './form-validation.js';
import { formKey, initialFormState, type FormState, type FormStep } from './form-state.js';

const is: ActionMatcher = (action, input, key) =>
  DEFAULT_KEY_BINDINGS[action].some((spec) => matchesKey(spec, input, key));

/** Key events as Ink reports them. */
const K = {
  tab: ['', inkKey({ tab: true })],
  shiftTab: ['', inkKey({ tab: true, shift: true })],
  up: ['', inkKey({ upArrow: true })],
  down: ['', inkKey({ downArrow: true })],
  left: ['', inkKey({ leftArrow: true })],
  right: ['', inkKey({ rightArrow: true })],
  space: [' ', inkKey()],
  enter: ['\r', inkKey({ return: true })],
  backspace: ['', inkKey({ delete: true })],
  escape: ['', inkKey({ escape: true })],
  ctrlC: ['c', inkKey({ ctrl: true })],
  ctrlS: ['s', inkKey({ ctrl: true })],
  ctrlU: ['u', inkKey({ ctrl: true })],
} satisfies Record<string, [string, Key]>;
type KeyName = keyof typeof K;

/** Applies keys (names of {@link K}, or text typed one character at a time) until an outcome. */
function run(fields: readonly FormField[], ...keys: (KeyName | { text: string })[]): FormStep {
  let step: FormStep = { state: initialFormState(fields) };
  for (const k of keys) {
    const events: [string, Key][] =
      typeof k === 'string' ? [K[k]] : [...k.text].map((ch): [string, Key] => [ch, inkKey()]);
    for (const [input, key] of events) {
      if (step.outcome) return step;
      step = formKey(fields, step.state, input, key, is);
    }
  }
  return step;
}

const text = (value: string): FieldValue => ({
  kind: 'text',
  buffer: { text: value, cursor: value.length },
});
const field = <T extends FormField['kind']>(kind: T, extra: object = {}): FormField =>
  ({ name: 'f', title: 'F', required: false, kind, ...extra }) as FormField;

describe('form fields from a requested schema', () => {
  it('reads every field type with titles, choices, defaults and required marks', () => {
    const fields = formFields(CORPUS_DEPLOY_FORM);
    expect(fields.map((f) => [f.name, f.kind, f.title, f.required])).toEqual([
      ['environment', 'select', 'Environment', true],
      ['branch', 'text', 'branch', false],
      ['contact', 'text', 'contact', false],
      ['color', 'select', 'color', false],
      ['replicas', 'integer', 'replicas', false],
      ['ratio', 'number', 'ratio', false],
      ['confirm', 'boolean', 'I understand', true],
      ['regions', 'multiselect', 'regions', false],
      ['teams', 'multiselect', 'Teams to notify', false],
    ]);
    expect(fields[0]).toMatchObject({
      choices: [
        { value: 'staging', title: 'Staging' },
        { value: 'production', title: 'Production', description: 'Live traffic' },
      ],
      default: 'staging',
    });
    expect(fields[1]).toMatchObject({
      minLength: 1,
      maxLength: 100,
      pattern: '^[\\w./-]+$',
      default: 'main',
    });
    expect(fields[2]).toMatchObject({ format: 'email' });
    expect(fields[4]).toMatchObject({ minimum: 1, maximum: 10, default: 2 });
    expect(fields[8]).toMatchObject({
      maxItems: 2,
      choices: [{ value: 'infra', title: 'Infrastructure' }, {}],
    });
    expect(fields.map(initialValue)).toEqual([
      { kind: 'select', index: 0 },
      text('main'),
      text(''),
      { kind: 'select', index: undefined },
      text('2'),
      text('0.5'),
      { kind: 'boolean', checked: false },
      { kind: 'multiselect', chosen: [true, false], focus: 0 },
      { kind: 'multiselect', chosen: [false, false], focus: 0 },
    ]);
  });

  it('survives a hostile or newer schema: unknown types are unsupported, bad parts are ignored', () => {
    const fields = formFields({
      properties: {
        a: null,
        b: { type: 'object' },
        c: { type: 'array', items: { type: 'number' } },
        d: { type: 'string', enum: ['x', 7, 'x', 'y'], default: 'z', minLength: -1, maxLength: 1.5 },
        e: { type: 'integer', default: 1.5, minimum: 'low' },
        f: { type: 'string', default: 'a\x1b[2Jb\nc' },
      },
      required: ['b', 3, 'f'],
    } as unknown as ElicitationSchema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['a', 'unsupported', false],
      ['b', 'unsupported', true],
      ['c', 'unsupported', false],
      ['d', 'select', false],
      ['e', 'integer', false],
      ['f', 'text', true],
    ]);
    expect(fields[3]).toMatchObject({ choices: [{ value: 'x' }, { value: 'y' }], default: undefined });
    expect(fields[4]).toMatchObject({ default: undefined, minimum: undefined });
    // What is shown is what is sent: no control sequences, one line.
    expect(initialValue(fields[5] as FormField)).toEqual(text('ab c'));
    expect(formFields({} as ElicitationSchema)).toEqual([]);
  });
});

describe('field checks', () => {
  it('checks text: required, lengths in code points, formats and patterns', () => {
    const name = field('text', { required: true, minLength: 2, maxLength: 3 });
    expect(checkField(name, text(''))).toEqual({ ok: false, error: 'Required' });
    expect(checkField(name, text('a'))).toEqual({ ok: false, error: 'At least 2 characters' });
    expect(checkField(name, text('abcd'))).toEqual({ ok: false, error: 'At most 3 characters' });
    expect(checkField(name, text('😀😀😀'))).toEqual({ ok: true, value: '😀😀😀' });
    expect(checkField(field('text'), text(''))).toEqual({ ok: true, value: undefined });
    const branch = field('text', { pattern: '^[a-z]+$' });
    expect(checkField(branch, text('main'))).toEqual({ ok: true, value: 'main' });
    expect(checkField(branch, text('Main'))).toEqual({ ok: false, error: 'Must match ^[a-z]+$' });
    // A pattern that cannot be compiled refuses the value rather than sending it unchecked.
    expect(checkField(field('text', { pattern: '([' }), text('x'))).toMatchObject({ ok: false });
    expect(checkField(field('text', { format: 'email' }), text('a@b'))).toEqual({ ok: true, value: 'a@b' });
    expect(checkField(field('text', { format: 'email' }), text('a b@c'))).toEqual({
      ok: false,
      error: 'Not a valid email (name@example.com)',
    });
    expect(checkField(field('text', { format: 'future-format' }), text('x'))).toEqual({
      ok: true,
      value: 'x',
    });
  });

  it('checks the string formats strictly', () => {
    const cases: [string, string, boolean][] = [
      ['email', 'ada@example.com', true],
      ['email', 'ada@', false],
      ['email', '@example.com', false],
      ['uri', 'https://example.com/a?b=c#d', true],
      ['uri', 'urn:isbn:0451450523', true],
      ['uri', 'example.com', false],
      ['uri', 'https://exa mple.com', false],
      ['uri', 'https://example.com/%zz', false],
      ['date', '2024-02-29', true],
      ['date', '2023-02-29', false],
      ['date', '2024-13-01', false],
      ['date', '2024-1-01', false],
      ['date-time', '2024-02-29T23:59:59Z', true],
      ['date-time', '2024-02-29t10:00:00.5+05:30', true],
      ['date-time', '2024-02-29T24:00:00Z', false],
      ['date-time', '2024-02-29T10:00:00', false],
      ['date-time', '2024-02-29 10:00:00Z', false],
    ];
    for (const [format, value, valid] of cases)
      expect([format, value, matchesFormat(format, value)]).toEqual([format, value, valid]);
  });

  it('checks numbers, integers and their range', () => {
    const replicas = field('integer', { required: true, minimum: 1, maximum: 10 });
    expect(checkField(replicas, text(' 3 '))).toEqual({ ok: true, value: 3 });
    expect(checkField(replicas, text('3.5'))).toEqual({ ok: false, error: 'Not a whole number' });
    expect(checkField(replicas, text('0'))).toEqual({ ok: false, error: 'At least 1' });
    expect(checkField(replicas, text('11'))).toEqual({ ok: false, error: 'At most 10' });
    expect(checkField(replicas, text('1e1'))).toEqual({ ok: true, value: 10 });
    expect(checkField(replicas, text(''))).toEqual({ ok: false, error: 'Required' });
    const ratio = field('number', { minimum: 0, maximum: 1 });
    expect(checkField(ratio, text('.25'))).toEqual({ ok: true, value: 0.25 });
    for (const bad of ['abc', '1,5', 'Infinity', '0x1', '1e999', '--1'])
      expect(checkField(ratio, text(bad))).toEqual({ ok: false, error: 'Not a number' });
    expect(checkField(ratio, text(''))).toEqual({ ok: true, value: undefined });
  });

  it('checks choices: one for a required select, item counts for a multi-select', () => {
    const choices = [
      { value: 'a', title: 'A' },
      { value: 'b', title: 'B' },
      { value: 'c', title: 'C' },
    ];
    const select = field('select', { required: true, choices });
    expect(checkField(select, { kind: 'select', index: undefined })).toEqual({
      ok: false,
      error: 'Choose one',
    });
    expect(checkField(select, { kind: 'select', index: 1 })).toEqual({ ok: true, value: 'b' });
    const many = field('multiselect', { choices, minItems: 2, maxItems: 2 });
    const chosen = (...flags: boolean[]): FieldValue => ({ kind: 'multiselect', chosen: flags, focus: 0 });
    expect(checkField(many, chosen(false, false, false))).toEqual({ ok: true, value: undefined });
    expect(checkField(many, chosen(true, false, false))).toEqual({ ok: false, error: 'Choose at least 2' });
    expect(checkField(many, chosen(true, true, true))).toEqual({ ok: false, error: 'Choose at most 2' });
    expect(checkField(many, chosen(true, false, true))).toEqual({ ok: true, value: ['a', 'c'] });
    const required = field('multiselect', { choices, required: true });
    expect(checkField(required, chosen(false, false, false))).toEqual({
      ok: false,
      error: 'Choose at least 1',
    });
    expect(checkField(field('unsupported', { type: 'object', required: true }), { kind: 'none' })).toEqual({
      ok: false,
      error: 'acp cannot fill in a field of type "object"',
    });
  });

  it('builds content from exactly the fields that have a value, as own properties', () => {
    const fields = formFields(
      JSON.parse('{"properties":{"__proto__":{"type":"string"},"n":{"type":"number"}}}') as ElicitationSchema,
    );
    const result = checkForm(fields, [text('x'), text('')]);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.keys(result.content)).toEqual(['__proto__']);
      expect(JSON.stringify(result.content)).toBe('{"__proto__":"x"}');
    }
  });
});

describe('form keys', () => {
  const fields = formFields(CORPUS_DEPLOY_FORM);

  it('accepts the defaults with the submit key', () => {
    expect(run(fields, 'ctrlS').outcome).toEqual({
      action: 'accept',
      content: {
        environment: 'staging',
        branch: 'main',
        replicas: 2,
        ratio: 0.5,
        confirm: false,
        regions: ['eu-west-1'],
      },
    });
  });

  it('moves with Tab, arrows and Shift+Tab, through the buttons and round again', () => {
    expect(run(fields, 'tab', 'down').state.focus).toBe(2);
    expect(run(fields, 'tab', 'up').state.focus).toBe(0);
    expect(run(fields, 'shiftTab').state.focus).toBe(fields.length);
    expect(run(fields, 'shiftTab', 'tab').state.focus).toBe(0);
    // Enter goes to the next field until the last one.
    expect(run(fields, 'enter', 'enter').state.focus).toBe(2);
  });

  it('edits text fields, ticks booleans and choices, picks with ←/→', () => {
    const step = run(
      fields,
      'right', // environment: production
      'tab', // branch
      'ctrlU',
      { text: 'fix/x y' },
      'left',
      'backspace', // "fix/xy"
      'tab',
      { text: 'ada@example.com' },
      'tab', // color: optional, starts with no choice; ← goes to the last
      'left',
      'tab',
      'backspace',
      { text: '7' },
      'tab',
      'tab', // confirm
      'space',
      'tab', // regions: focus us-east-1 and tick it, untick eu-west-1
      'space',
      'right',
      'space',
      'tab', // teams
      'right',
      'space',
      'enter',
    );
    expect(step.outcome).toEqual({
      action: 'accept',
      content: {
        environment: 'production',
        branch: 'fix/xy',
        contact: 'ada@example.com',
        color: 'green',
        replicas: 7,
        ratio: 0.5,
        confirm: true,
        regions: ['us-east-1'],
        teams: ['web'],
      },
    });
  });

  it('cycles an optional select back to no choice, and a required one only through its choices', () => {
    const color = fields.findIndex((f) => f.name === 'color');
    const to = (...keys: KeyName[]) =>
      run(fields, ...(Array<KeyName>(color).fill('tab') as KeyName[]), ...keys).state.values[color];
    expect(to('right')).toEqual({ kind: 'select', index: 0 });
    expect(to('right', 'right', 'right')).toEqual({ kind: 'select', index: undefined });
    expect(run(fields, 'right', 'right').state.values[0]).toEqual({ kind: 'select', index: 0 });
  });

  it('refuses to accept until every field passes, with the errors beside the fields', () => {
    const strict = formFields({
      properties: {
        name: { type: 'string', minLength: 2 },
        age: { type: 'integer', maximum: 150 },
        pick: { type: 'string', enum: ['a', 'b'] },
      },
      required: ['name', 'pick'],
    } as ElicitationSchema);
    // An untouched empty field is not reported when left; an invalid value is.
    let step = run(strict, 'tab', { text: '200' }, 'tab');
    expect(step.state.errors).toEqual([undefined, 'At most 150', undefined]);
    step = run(strict, 'tab', { text: '200' }, 'enter', 'ctrlS');
    expect(step.outcome).toBeUndefined();
    expect(step.state.errors).toEqual(['Required', 'At most 150', 'Choose one']);
    expect(step.state.focus).toBe(0);
    expect(step.state.notice).toBe('Fix the 3 fields marked ✗, then submit again');
    // Errors follow the edits and go once fixed.
    const edit = (state: FormState, input: string, key = inkKey()) =>
      formKey(strict, state, input, key, is).state;
    let state = edit(step.state, 'A');
    expect(state.errors[0]).toBe('At least 2 characters');
    state = edit(state, 'd');
    expect(state.errors[0]).toBeUndefined();
    state = edit(state, '', inkKey({ tab: true }));
    state = edit(state, '', inkKey({ delete: true }));
    state = edit(state, '', inkKey({ delete: true }));
    expect(state.errors[1]).toBeUndefined();
    state = edit(edit(state, '', inkKey({ tab: true })), '', inkKey({ rightArrow: true }));
    expect(state.notice).toBeUndefined();
    expect(formKey(strict, state, '', inkKey({ return: true }), is).outcome).toEqual({
      action: 'accept',
      content: { name: 'Ad', age: 2, pick: 'a' },
    });
  });

  it('declines with Esc, cancels with Ctrl+C, and presses the focused button with Enter', () => {
    expect(run(fields, 'escape').outcome).toEqual({ action: 'decline' });
    expect(run(fields, 'tab', { text: 'typed' }, 'ctrlC').outcome).toEqual({ action: 'cancel' });
    expect(run(fields, 'shiftTab', 'right', 'enter').outcome).toEqual({ action: 'decline' });
    expect(run(fields, 'shiftTab', 'right', 'right', 'right', 'enter').outcome).toEqual({ action: 'cancel' });
    expect(run(fields, 'shiftTab', 'right', 'left', 'enter').outcome).toMatchObject({ action: 'accept' });
    // A form without fields is its buttons.
    expect(run([], 'enter').outcome).toEqual({ action: 'accept', content: {} });
  });

  it('cannot be accepted when it needs a value of a type acp cannot edit', () => {
    const odd = formFields({
      properties: { blob: { type: 'object' } },
      required: ['blob'],
    } as unknown as ElicitationSchema);
    const step = run(odd, 'ctrlS');
    expect(step.outcome).toBeUndefined();
    expect(step.state.notice).toBe('This form asks for something acp cannot fill in: decline or cancel it');
    expect(run(odd, 'ctrlS', 'escape').outcome).toEqual({ action: 'decline' });
  });
});

describe('whatever is typed, accepted content matches the requested schema', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  /** Random keys: mostly the given keys and characters, sometimes moving away or submitting. */
  const keys = (names: KeyName[], chars: string) =>
    fc.array(
      fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom<KeyName>('tab', 'shiftTab', 'enter', 'ctrlS') },
        { weight: 4, arbitrary: fc.constantFrom(...names) },
        { weight: 4, arbitrary: fc.constantFrom(...chars).map((t) => ({ text: t })) },
      ),
      { minLength: 2, maxLength: 24 },
    );
  const editing: KeyName[] = ['backspace', 'left', 'ctrlU'];
  const choosing: KeyName[] = ['left', 'right', 'space'];
  // One field per form, valid as it opens (where it can be), so random keys both keep and break it.
  const ONE_FIELD: [string, object, KeyName[], string][] = [
    [
      'text',
      { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$', default: 'ab' },
      editing,
      'abZ-',
    ],
    ['email', { type: 'string', format: 'email', default: 'a@b.c' }, editing, 'a@.- '],
    ['date', { type: 'string', format: 'date', default: '2024-01-31' }, editing, '0123-'],
    ['integer', { type: 'integer', minimum: -3, maximum: 12, default: 3 }, editing, '0135-.e'],
    ['number', { type: 'number', minimum: 0.5, maximum: 2, default: 1 }, editing, '0135-.e'],
    [
      'select',
      {
        type: 'string',
        oneOf: [
          { const: 'x', title: 'X' },
          { const: 'y', title: 'Y' },
        ],
      },
      choosing,
      '',
    ],
    [
      'multiselect',
      {
        type: 'array',
        items: { type: 'string', enum: ['p', 'q', 'r'] },
        minItems: 1,
        maxItems: 2,
        default: ['p'],
      },
      choosing,
      '',
    ],
    ['boolean', { type: 'boolean' }, choosing, ''],
  ];
  const forms: [string, ElicitationSchema, fc.Arbitrary<(KeyName | { text: string })[]>][] = [
    [
      'the example deploy form',
      CORPUS_DEPLOY_FORM,
      keys([...editing, ...choosing, 'up', 'down'], 'abZ01.-@😀 '),
    ],
    ...ONE_FIELD.map(
      ([kind, property, names, chars]): [
        string,
        ElicitationSchema,
        fc.Arbitrary<(KeyName | { text: string })[]>,
      ] => [
        `a ${kind} field`,
        { type: 'object', properties: { v: property }, required: ['v'] } as ElicitationSchema,
        keys(names, chars || ' '),
      ],
    ),
  ];

  for (const [label, schema, typing] of forms) {
    it(label, () => {
      const fields = formFields(schema);
      const validate = ajv.compile(schema);
      let accepted = 0;
      fc.assert(
        fc.property(typing, (sequence) => {
          const step = run(fields, ...sequence);
          if (step.outcome?.action !== 'accept') return;
          accepted++;
          expect(validate(step.outcome.content), JSON.stringify(validate.errors)).toBe(true);
        }),
        { numRuns: 500, seed: 7 },
      );
      // Not vacuous: random keys do get forms accepted.
      expect(accepted).toBeGreaterThan(20);
    });
  }
});

describe('form layout', () => {
  it('counts the rows of each field and keeps the focused field in view', () => {
    const fields = formFields(CORPUS_DEPLOY_FORM);
    const values = fields.map(initialValue);
    expect(fields.map((f, i) => fieldRows(f, values[i] as FieldValue))).toEqual([2, 3, 3, 2, 3, 3, 1, 3, 3]);
    // Wrapped in 10 cells, the focused field’s details would take 4 rows: they are cut at 3.
    expect(wrapText('1–100 characters · pattern ^[\\w./-]+$', 10)).toEqual([
      '1–100',
      'characters',
      '· pattern',
      '^[\\w./-]+$',
    ]);
    expect(fieldRows(fields[1] as FormField, values[1] as FieldValue, 10)).toBe(2 + 3);
    const heights = [3, 3, 3, 3, 3];
    expect(fieldWindow(heights, 0, 15)).toEqual({ start: 0, end: 5 });
    expect(fieldWindow(heights, 0, 11)).toEqual({ start: 0, end: 3 });
    expect(fieldWindow(heights, 4, 11)).toEqual({ start: 2, end: 5 });
    expect(fieldWindow(heights, 2, 8)).toEqual({ start: 2, end: 4 });
    // The focused field shows even when it alone is taller than the room.
    expect(fieldWindow([20], 0, 5)).toEqual({ start: 0, end: 1 });
    expect(fieldWindow([], 0, 5)).toEqual({ start: 0, end: 0 });
  });

  it('says what the schema asks of a field', () => {
    const hints = formFields(CORPUS_DEPLOY_FORM).map(fieldHint);
    expect(hints).toEqual([
      undefined,
      '1–100 characters · pattern ^[\\w./-]+$',
      'name@example.com',
      undefined,
      'whole number · 1–10',
      'number · 0–1',
      undefined,
      'choose at least 1 · Space ticks',
      'choose at most 2 · Space ticks',
    ]);
  });

  it('wraps words into rows of a width, cutting words longer than a row', () => {
    expect(wrapText('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('日本語の文', 4)).toEqual(['日本', '語の', '文']);
    expect(wrapText('a\n\nb', 10)).toEqual(['a', '', 'b']);
  });

  it('shows the part of a long text field around its cursor', () => {
    expect(textWindow('short', 5, 20)).toEqual({ before: 'short', at: ' ', after: '' });
    expect(textWindow('abcdefghijklmnop', 16, 8)).toEqual({ before: '…lmnop', at: ' ', after: '' });
    expect(textWindow('abcdefghijklmnop', 0, 8)).toEqual({ before: '', at: 'a', after: 'bcdef…' });
    expect(textWindow('abcdefghijklmnop', 8, 8)).toEqual({ before: '…defgh', at: 'i', after: '…' });
  });

  it('lays the form out in its rows: extras only with room, a third for the message, the focused field always', () => {
    const base = {
      footerRows: 1,
      hasTitle: true,
      hasDescription: true,
      messageRows: Array.from({ length: 30 }, (_, i) => `line ${i}`),
      heights: [3, 6, 3, 3],
      flatHeights: [3, 3, 3, 3],
      focus: 1,
    };
    const roomy = formLayout({ ...base, rows: 40 });
    expect(roomy).toMatchObject({ showTitle: true, showDescription: true, gap: true, wrapFocused: true });
    expect(roomy.message.shown.length).toBe(10);
    expect([roomy.start, roomy.end]).toEqual([0, 4]);
    const small = formLayout({ ...base, rows: 12 });
    expect(small).toMatchObject({ showTitle: false, showDescription: false, gap: false, wrapFocused: false });
    expect(small.message.shown.length).toBe(1);
    // 12 rows: borders, title and buttons (4), the footer (1), the message and its fold (2), the
    // focused field on one row (3) and a "more fields" row above and below.
    expect([small.start, small.end]).toEqual([1, 2]);
  });
});

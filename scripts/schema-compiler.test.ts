/**
 * The schema compiler on synthetic schemas: the code paths the ACP schema does not exercise today
 * (overlapping `oneOf` branches, a tagged union with an untagged branch, `additionalProperties` next to
 * `properties`, integers without a format, …), checked against ajv like the oracle tests do.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as runtime from '../packages/protocol/src/schema/runtime.js';
import { FAIL, ParseContext, type Checker, type Parser } from '../packages/protocol/src/schema/runtime.js';
import { SchemaArbitraries } from '../packages/protocol/src/schema/test-support/arbitrary.js';
import { Oracle, type SchemaDocument } from '../packages/protocol/src/schema/test-support/oracle.js';
import {
  SchemaCompiler,
  TypeEmitter,
  collectMethods,
  methodsModule,
  type CompileOptions,
  type SchemaObject,
} from './schema-compiler.ts';

const SEED = 4242;

const obj = (properties: Record<string, unknown>, required: string[] = [], extra: object = {}) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});

const DOC = {
  $defs: {
    Overlap: { oneOf: [{ type: 'string' }, { type: 'string', minLength: 3 }, { type: 'integer' }] },
    OverlapAny: { anyOf: [{ type: 'string' }, { type: 'string', minLength: 3 }, { type: 'integer' }] },
    TaggedWithFallback: {
      oneOf: [
        obj({ kind: { type: 'string', const: 'a' }, a: { type: 'integer' } }, ['kind', 'a']),
        obj({ kind: { type: 'string', const: 'b' } }, ['kind']),
        obj({ a: { type: 'integer', minimum: 0 } }, ['a']),
      ],
    },
    TaggedAnyFallback: {
      anyOf: [
        obj({ kind: { type: 'string', const: 'a' }, a: { type: 'integer' } }, ['kind', 'a']),
        obj({ kind: { type: 'string', const: 'b' } }, ['kind']),
        obj({ a: { type: 'integer', minimum: 0 } }, ['a']),
      ],
    },
    TaggedOrString: { anyOf: [obj({ t: { type: 'string', const: 'x' } }, ['t']), { type: 'string' }] },
    OpenOneOf: {
      oneOf: [{ type: 'string', const: 'a' }, { type: 'string', const: 'b' }, { type: 'string' }],
    },
    OpenAnyOf: { anyOf: [{ type: 'string', const: 'a' }, { type: 'string' }] },
    DuplicateTags: {
      oneOf: [
        obj({ t: { type: 'string', const: 'x' } }, ['t']),
        obj({ t: { type: 'string', const: 'x' }, v: { type: 'integer' } }, ['t', 'v']),
      ],
    },
    UntypedTagBranch: {
      oneOf: [
        { properties: { t: { type: 'string', const: 'x' } }, required: ['t'] },
        { properties: { t: { type: 'string', const: 'y' } }, required: ['t'] },
      ],
    },
    UntypedTagBranchAny: {
      anyOf: [
        { properties: { t: { type: 'string', const: 'x' } }, required: ['t'] },
        { properties: { t: { type: 'string', const: 'y' } }, required: ['t'] },
      ],
    },
    PropsAndAdditional: obj({ a: { type: 'string' } }, [], {
      additionalProperties: { type: 'integer', minimum: 2 },
    }),
    IntNoFormat: { type: 'integer', minimum: -3, maximum: 7 },
    NumberMinimum: { type: 'number', minimum: 0.5 },
    EnumKeyword: { enum: ['a', 1, null, { x: 1 }] },
    ConstObject: { const: { a: [1, 2] } },
    NotAfterUnion: {
      anyOf: [obj({ t: { type: 'string', const: 'a' } }, ['t']), obj({ u: { type: 'string' } }, ['u'])],
      not: { type: 'object', required: ['forbidden'] },
    },
    MinLength: { type: 'string', minLength: 2 },
    NullableUnion: { anyOf: [{ $ref: '#/$defs/MinLength' }, { type: 'null' }] },
    BooleanSchemas: obj({ never: false, any: true }),
    EnumArray: {
      type: 'array',
      items: {
        oneOf: [
          { type: 'string', const: 'x' },
          { type: 'string', const: 'y' },
        ],
      },
    },
    MinItems: { type: 'array', items: { type: 'integer' }, minItems: 2 },
    AnnotatedStrings: obj({
      when: { type: 'string', format: 'date-time' },
      pattern: { type: 'string', format: 'regex' },
      bytes: { type: 'string', contentEncoding: 'base64' },
    }),
    SkipToAtLeastOne: obj(
      {
        list: {
          type: 'array',
          items: { type: 'integer' },
          minItems: 1,
          'x-deserialize-default-on-error': true,
          'x-deserialize-skip-invalid-items': true,
        },
      },
      ['list'],
    ),
    Lenient: obj(
      {
        list: {
          type: 'array',
          items: { $ref: '#/$defs/IntNoFormat' },
          'x-deserialize-default-on-error': true,
          'x-deserialize-skip-invalid-items': true,
        },
        flag: { type: 'boolean', default: true, 'x-deserialize-default-on-error': true },
        names: { type: 'array', items: { type: 'string' }, 'x-deserialize-default-on-null': true },
        nested: { allOf: [{ $ref: '#/$defs/PropsAndAdditional' }], 'x-deserialize-default-on-error': true },
        choice: { $ref: '#/$defs/TaggedWithFallback' },
        map: { type: 'object', additionalProperties: { $ref: '#/$defs/OpenOneOf' } },
      },
      ['names'],
    ),
  },
} as unknown as SchemaDocument;

/** Compiles a document and loads the generated validators, as plain JavaScript. */
function load(doc: SchemaDocument, options: CompileOptions = {}): Record<string, unknown> {
  const compiler = new SchemaCompiler(
    doc as unknown as ConstructorParameters<typeof SchemaCompiler>[0],
    options,
  );
  compiler.runtimeImport = 'runtime';
  const js = ts.transpileModule(compiler.validatorsModule('// test'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const module = { exports: {} as Record<string, unknown> };
  const load = (id: string) => (id === 'runtime' ? runtime : {});
  new Function('require', 'module', 'exports', js)(load, module, module.exports);
  return module.exports;
}

const validators = load(DOC);
const oracle = new Oracle(DOC, 'synthetic');
const arbs = new SchemaArbitraries(DOC);

/**
 * ajv's verdict, or undefined when ajv throws: its deep equality (used for object-valued `enum` and
 * `const`) calls a `valueOf` key of the data as a method, so `{"valueOf": []}` crashes it.
 */
function ajvVerdict(name: string, value: unknown): boolean | undefined {
  try {
    return oracle.valid(name, value);
  } catch {
    return undefined;
  }
}

describe('compiled synthetic schemas agree with ajv', () => {
  it.each(Object.keys(DOC.$defs))('%s', (name) => {
    const check = validators[`check${name}`] as Checker;
    const parse = validators[`parse${name}`] as Parser;
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(arbs.values(name), (v) => {
        const expected = ajvVerdict(name, v);
        if (expected === undefined) {
          // ajv itself cannot judge this value; ours must still not throw.
          (validators[`check${name}`] as Checker)(v);
          (validators[`parse${name}`] as Parser)(structuredClone(v), new ParseContext());
          return;
        }
        if (expected) valid++;
        else invalid++;
        expect(check(v), `check ${JSON.stringify(v)}`).toBe(expected);
        const ctx = new ParseContext();
        const out = parse(structuredClone(v), ctx);
        if (expected) {
          expect(out, `parse ${JSON.stringify(v)}: ${JSON.stringify(ctx.error)}`).not.toBe(FAIL);
          expect(ctx.diagnostics).toEqual([]);
          expect(isDeepStrictEqual(out, v)).toBe(true);
        }
        if (out !== FAIL && !ctx.diagnostics.some((d) => d.kind.startsWith('unknown'))) {
          expect(
            oracle.valid(name, out),
            `parse accepted ${JSON.stringify(v)} as ${JSON.stringify(out)}`,
          ).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
    expect(valid).toBeGreaterThan(0);
    expect(invalid).toBeGreaterThan(0);
  });

  it('oneOf rejects a value that two branches accept, in both checker and parser', () => {
    const check = validators.checkOverlap as Checker;
    const parse = validators.parseOverlap as Parser;
    expect([check('ab'), check('abc'), check(5), check(true)]).toEqual([true, false, true, false]);
    expect(runtime.parseWith(parse, 'abc')).toMatchObject({
      ok: false,
      error: { message: 'matches more than one allowed shape' },
    });
    expect(runtime.parseWith(validators.parseOverlapAny as Parser, 'abc')).toMatchObject({ ok: true });
    const tagged = validators.checkTaggedWithFallback as Checker;
    expect([tagged({ kind: 'a', a: 1 }), tagged({ kind: 'a', a: -1 }), tagged({ kind: 'b', a: 1 })]).toEqual([
      false,
      true,
      false,
    ]);
    expect((validators.checkOpenOneOf as Checker)('a')).toBe(false);
    expect((validators.checkOpenOneOf as Checker)('c')).toBe(true);
  });

  it('a tagged union with a non-object untagged branch parses that branch', () => {
    expect(runtime.parseWith(validators.parseTaggedOrString as Parser, 'plain')).toEqual({
      ok: true,
      value: 'plain',
      diagnostics: [],
    });
  });

  it('diagnostics and errors get paths relative to the parsed value', () => {
    const r = runtime.parseWith(validators.parseLenient as Parser, {
      names: null,
      list: [1, 99, 2],
      flag: 'no',
      map: { k: 'z' },
    });
    expect(r).toEqual({
      ok: true,
      value: { names: [], list: [1, 2], flag: true, map: { k: 'z' } },
      diagnostics: [
        { kind: 'skipped-item', path: 'list[1]', message: 'invalid item skipped' },
        { kind: 'defaulted', path: 'flag', message: 'invalid value replaced by its default' },
      ],
    });
    expect(
      runtime.parseWith(validators.parseLenient as Parser, { names: [], map: { 'a b': 3 } }),
    ).toMatchObject({
      ok: false,
      error: { path: 'map["a b"]' },
    });
    expect(runtime.parseWith(validators.parseLenient as Parser, { names: ['a', 1] })).toMatchObject({
      ok: false,
      error: { path: 'names[1]' },
    });
  });
});

describe('minItems and annotations', () => {
  it('minItems rejects a short array in checker and parser; string formats and contentEncoding do not', () => {
    expect((validators.checkMinItems as Checker)([1])).toBe(false);
    expect(runtime.parseWith(validators.parseMinItems as Parser, [1])).toMatchObject({
      ok: false,
      error: { path: '', message: 'must have at least 2 items' },
    });
    const loose = { when: 'last tuesday', pattern: '([', bytes: 'not base64!' };
    expect((validators.checkAnnotatedStrings as Checker)(loose)).toBe(true);
    expect(oracle.valid('AnnotatedStrings', loose)).toBe(true);
  });

  it('an array left below minItems by skipped items fails instead of taking a default that breaks it', () => {
    const parse = validators.parseSkipToAtLeastOne as Parser;
    expect(runtime.parseWith(parse, { list: [1, 'x'] })).toMatchObject({ ok: true, value: { list: [1] } });
    expect(runtime.parseWith(parse, { list: ['x'] })).toMatchObject({ ok: false, error: { path: 'list' } });
  });
});

describe("otherAsUnknown: the schema's `other` branches as unknown variants and values", () => {
  const tagged = (tag: string, extra: Record<string, unknown> = {}, required: string[] = []) =>
    obj({ kind: { type: 'string', const: tag }, ...extra }, ['kind', ...required]);
  const notKnown = { anyOf: [tagged('a'), tagged('b')] };
  const DOC_OTHER = {
    $defs: {
      Shape: {
        anyOf: [
          tagged('a', { n: { type: 'integer' } }, ['n']),
          tagged('b'),
          {
            title: 'other',
            ...obj({ kind: { type: 'string' }, id: { type: 'string' } }, ['kind', 'id']),
            not: notKnown,
            additionalProperties: true,
          },
        ],
      },
      Status: {
        anyOf: [
          { type: 'string', const: 'on' },
          { type: 'string', const: 'off' },
          { title: 'other', type: 'string' },
        ],
      },
      Kind: {
        anyOf: [
          { type: 'string', const: 'other' },
          { title: 'unknown', type: 'string' },
        ],
      },
    },
  } as unknown as SchemaDocument;
  const plain = load(DOC_OTHER);
  const marked = load(DOC_OTHER, { otherAsUnknown: true });
  const otherOracle = new Oracle(DOC_OTHER, 'synthetic-other');
  const otherArbs = new SchemaArbitraries(DOC_OTHER);

  it.each(Object.keys(DOC_OTHER.$defs))(
    '%s: checkers agree with ajv, with and without the option',
    (name) => {
      fc.assert(
        fc.property(otherArbs.values(name), (v) => {
          const expected = otherOracle.valid(name, v);
          expect((plain[`check${name}`] as Checker)(v)).toBe(expected);
          expect((marked[`check${name}`] as Checker)(v)).toBe(expected);
          const out = (marked[`parse${name}`] as Parser)(structuredClone(v), new ParseContext());
          if (expected) expect(out).not.toBe(FAIL);
        }),
        { seed: SEED, numRuns: 300 },
      );
    },
  );

  it('an unknown tag is kept and marked, with the fields the other branch requires', () => {
    const value = { kind: 'z', id: 'x', more: 1 };
    const r = runtime.parseWith<object>(marked.parseShape as Parser, structuredClone(value));
    expect(r.ok && runtime.isUnknownVariant(r.value)).toBe(true);
    expect(r.diagnostics).toEqual([{ kind: 'unknown-variant', path: '', message: 'unknown kind "z"' }]);
    expect(runtime.parseWith(marked.parseShape as Parser, { kind: 'z' })).toMatchObject({
      ok: false,
      error: { path: 'id' },
    });
    // Without the option the same value is accepted silently, unmarked.
    const quiet = runtime.parseWith<object>(plain.parseShape as Parser, structuredClone(value));
    expect(quiet.ok && runtime.isUnknownVariant(quiet.value)).toBe(false);
    expect(quiet.diagnostics).toEqual([]);
  });

  it('an unknown string is reported as an unknown value (`other` and `unknown` titles alike)', () => {
    expect(runtime.parseWith(marked.parseStatus as Parser, 'dim').diagnostics.map((d) => d.kind)).toEqual([
      'unknown-value',
    ]);
    expect(runtime.parseWith(marked.parseKind as Parser, 'teleport').diagnostics.map((d) => d.kind)).toEqual([
      'unknown-value',
    ]);
    expect(runtime.parseWith(plain.parseStatus as Parser, 'dim').diagnostics).toEqual([]);
  });

  it('types: UnknownVariant and UnknownValue in place of the plain-string branches', () => {
    const types = new TypeEmitter(DOC_OTHER.$defs as Record<string, SchemaObject>, {
      otherAsUnknown: true,
    }).module('// test', 'runtime');
    expect(types).toContain('(UnknownVariant<"kind"> & {\n  id: string;\n})');
    expect(types).toContain('export type Status = ("on" | "off" | UnknownValue);');
    expect(types).toContain('export type Kind = ("other" | UnknownValue);');
    const plainTypes = new TypeEmitter(DOC_OTHER.$defs as Record<string, SchemaObject>).module('// t', 'r');
    expect(plainTypes).toContain('export type Status = ("on" | "off" | (string & {}));');
  });
});

describe('SchemaCompiler refuses what it cannot compile exactly', () => {
  it.each([
    [{ type: 'string', pattern: '^a' }, /unsupported keyword pattern/],
    [{ type: 'object', unevaluatedProperties: false }, /unsupported unevaluatedProperties/],
    [{ type: 'string', format: 'email' }, /unsupported format email/],
    [{ oneOf: [{ type: 'string' }], anyOf: [{ type: 'integer' }] }, /anyOf together with oneOf/],
  ])('%j', (def, error) => {
    expect(() => new SchemaCompiler({ $defs: { X: def as SchemaObject } })).toThrow(error);
  });
});

describe('collectMethods', () => {
  const defs: Record<string, SchemaObject> = {
    PingRequest: { type: 'object', 'x-method': 'ping', 'x-side': 'agent' },
    PingResponse: { type: 'object', 'x-method': 'ping', 'x-side': 'agent' },
    PingNotification: { type: 'object', 'x-method': 'ping', 'x-side': 'client' },
    ByeNotification: { type: 'object', 'x-method': 'bye', 'x-side': 'protocol' },
  };

  it('keeps a method that is both a request and a notification as two entries', () => {
    expect(collectMethods(defs)).toEqual([
      { method: 'ping', side: 'agent', kind: 'request', params: 'PingRequest', result: 'PingResponse' },
      { method: 'ping', side: 'client', kind: 'notification', params: 'PingNotification' },
      { method: 'bye', side: 'protocol', kind: 'notification', params: 'ByeNotification' },
    ]);
    const text = methodsModule('// test', collectMethods(defs));
    expect(text).toContain('notification: { method: "ping", side: "client", kind: "notification"');
    expect(text).toMatch(
      /interface AgentRequests \{\n {2}"ping": \{ params: T.PingRequest; result: T.PingResponse \};/,
    );
    expect(text).toMatch(/interface ClientNotifications \{\n {2}"ping": T.PingNotification;/);
  });

  it('rejects a request without a response', () => {
    expect(() => collectMethods({ PingRequest: defs.PingRequest! })).toThrow(/incomplete method ping/);
  });
});

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
import { SchemaCompiler, collectMethods, methodsModule, type SchemaObject } from './schema-compiler.ts';

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
function load(doc: SchemaDocument): Record<string, unknown> {
  const compiler = new SchemaCompiler(doc as unknown as ConstructorParameters<typeof SchemaCompiler>[0]);
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

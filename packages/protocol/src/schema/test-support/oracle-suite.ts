/**
 * The oracle properties every generated schema module must satisfy, as one suite per schema version
 * (v1 and the v2 draft, stable and unstable): coverage of the definitions and methods, checkers that
 * agree with ajv, lenient parsers that are only ever more permissive in the documented ways, and the
 * corpus of hand-written examples.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MethodInfo } from '../methods.gen.js';
import { FAIL, ParseContext } from '../runtime.js';
import type { Checker, Diagnostic, Parser } from '../runtime.js';
import { SchemaArbitraries } from './arbitrary.js';
import type { MethodExamples } from './corpus.js';
import type { Oracle } from './oracle.js';

/**
 * Fixed, so a failure is reproducible; fast-check prints it with the counterexample. For a longer
 * search: `ACP_ORACLE_SEED=<n> ACP_ORACLE_SCALE=<k> npx vitest run packages/protocol/src/schema`.
 */
export const SEED = Number(process.env.ACP_ORACLE_SEED ?? 20_250_601);
const SCALE = Number(process.env.ACP_ORACLE_SCALE ?? 1);

/** Runs per definition, scaled by `ACP_ORACLE_SCALE`. */
export function runs(n: number): number {
  return Math.round(n * SCALE);
}

export function fns(module: object, name: string): { check: Checker; parse: Parser } {
  const m = module as Record<string, unknown>;
  const check = m[`check${name}`];
  const parse = m[`parse${name}`];
  if (typeof check !== 'function' || typeof parse !== 'function')
    throw new Error(`no validators for ${name}`);
  return { check: check as Checker, parse: parse as Parser };
}

/** A per-definition seed: stable across runs, different between definitions. */
export function seedFor(name: string): number {
  let h = SEED;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + name.charCodeAt(i)) | 0;
  return h;
}

export function show(v: unknown): string {
  return JSON.stringify(v)?.slice(0, 600) ?? String(v);
}

interface ParseOutcome {
  out: unknown;
  ctx: ParseContext;
  threw?: unknown;
}

export function lenient(parse: Parser, value: unknown): ParseOutcome {
  const ctx = new ParseContext();
  try {
    return { out: parse(value, ctx), ctx };
  } catch (threw) {
    return { out: FAIL, ctx, threw };
  }
}

export const isUnknownKind = (d: Diagnostic): boolean =>
  d.kind === 'unknown-variant' || d.kind === 'unknown-value' || d.kind === 'tolerated';

/** One generated schema module and the schema document it came from. */
export interface GeneratedSchema {
  /** `stable`, `unstable`, `v2`, `v2 unstable`: used in test names. */
  label: string;
  oracle: Oracle;
  /** The `validators.gen.ts` module. */
  validators: object;
  /** Its `METHOD_TABLE`. */
  table: ReadonlyMap<string, MethodInfo>;
  /**
   * Generated with `otherAsUnknown`: a valid value of a union's `other` branch is kept and reported
   * as an unknown variant or value. Without it, a valid value is parsed silently.
   */
  otherAsUnknown?: boolean;
}

const isUnknownOther = (d: Diagnostic): boolean => d.kind === 'unknown-variant' || d.kind === 'unknown-value';

/** Every definition has a checker and a parser; the method table is exactly the schema's methods. */
export function describeCoverage(g: GeneratedSchema): void {
  const { label, oracle: o, validators: module, table } = g;
  it(`every ${label} definition has a checker and a parser`, () => {
    for (const name of o.defNames) expect(() => fns(module, name), name).not.toThrow();
  });

  it(`${label} METHOD_TABLE has exactly the schema's methods, wired to their own definitions`, () => {
    const fromSchema = new Set(
      Object.values(o.doc.$defs)
        .map((d) => d['x-method'])
        .filter((m) => m !== undefined),
    );
    expect(new Set(table.keys())).toEqual(fromSchema);
    const wired = new Set<string>();
    const expectWired = (info: MethodInfo) => {
      const method = info.method;
      const params = o.doc.$defs[info.paramsType]!;
      expect(params['x-method'], method).toBe(method);
      expect(params['x-side'], method).toBe(info.side);
      expect(info.paramsType.endsWith(info.kind === 'request' ? 'Request' : 'Notification'), method).toBe(
        true,
      );
      expect(info.checkParams).toBe(fns(module, info.paramsType).check);
      expect(info.parseParams).toBe(fns(module, info.paramsType).parse);
      wired.add(info.paramsType);
      if (info.kind === 'request') {
        expect(info.resultType, method).toBeDefined();
        const result = o.doc.$defs[info.resultType!]!;
        expect(result['x-method'], method).toBe(method);
        expect(info.checkResult).toBe(fns(module, info.resultType!).check);
        expect(info.parseResult).toBe(fns(module, info.resultType!).parse);
        wired.add(info.resultType!);
      } else {
        expect(info.resultType, method).toBeUndefined();
      }
    };
    for (const [method, info] of table) {
      expect(info.method).toBe(method);
      expectWired(info);
      if (info.notification) {
        expect(info.kind).toBe('request');
        expect(info.notification.kind).toBe('notification');
        expectWired(info.notification);
      }
    }
    // Every definition that names a method is reachable from the table.
    const withMethod = Object.entries(o.doc.$defs).filter(([, d]) => d['x-method'] !== undefined);
    expect(new Set(withMethod.map(([name]) => name))).toEqual(wired);
  });
}

/**
 * Property 1: `checkX` agrees with ajv on generated values. With `full`, every definition must also
 * reach its valid side and each method's params and results are tried on their own.
 */
export function describeAgreement(g: GeneratedSchema, numRuns: number, full: boolean): void {
  const { label, oracle, validators: module, table } = g;
  const arbs = new SchemaArbitraries(oracle.doc);
  describe(`property 1 on the ${label} schema: checkX agrees with ajv on generated values`, () => {
    it.each(oracle.defNames)('%s', (name) => {
      const { check } = fns(module, name);
      let valid = 0;
      fc.assert(
        fc.property(arbs.values(name), (v) => {
          const expected = oracle.valid(name, v);
          if (expected) valid++;
          if (check(v) !== expected) {
            throw new Error(
              `${label} check${name} says ${!expected} but ajv says ${expected} (${oracle.explain(name, v)}) for ${show(v)}`,
            );
          }
        }),
        { seed: seedFor(name), numRuns },
      );
      // The generator must reach the valid side of every definition, or the property proves little.
      if (full) expect(valid, `${name}: no generated value was valid`).toBeGreaterThan(0);
    });

    if (!full) return;
    it.each([...table.values()].map((m) => [m.method, m] as const))('method %s', (_method, info) => {
      for (const [type, check] of [
        [info.paramsType, info.checkParams],
        [info.resultType, info.checkResult],
      ] as const) {
        if (type === undefined || check === undefined) continue;
        fc.assert(
          fc.property(arbs.values(type), (v) => check(v) === oracle.valid(type, v)),
          { seed: seedFor(type), numRuns: runs(30) },
        );
      }
    });
  });
}

/** Properties 2-4 of the lenient parsers, on generated values. */
export function describeLeniency(g: GeneratedSchema, numRuns: number): void {
  const { label, oracle, validators: module } = g;
  const arbs = new SchemaArbitraries(oracle.doc);
  const reportedOnValid = (d: Diagnostic) => !(g.otherAsUnknown === true && isUnknownOther(d));
  describe(`lenient parse properties on generated ${label} values`, () => {
    it.each(oracle.defNames)('%s', (name) => {
      const { parse } = fns(module, name);
      fc.assert(
        fc.property(arbs.values(name), (v) => {
          const valid = oracle.valid(name, v);
          const input = structuredClone(v);
          const { out, ctx, threw } = lenient(parse, input);
          // Property 4: never throws.
          if (threw !== undefined) throw new Error(`parse${name} threw ${String(threw)} on ${show(v)}`);
          if (valid) {
            // Property 2: a valid value is accepted as is, silently (but for an `other` kept as unknown).
            if (out === FAIL)
              throw new Error(`parse${name} rejects a valid value at ${show(ctx.error)}: ${show(v)}`);
            if (ctx.diagnostics.some(reportedOnValid))
              throw new Error(`parse${name} reports ${show(ctx.diagnostics)} on valid ${show(v)}`);
            // The UNKNOWN_VARIANT mark is a symbol key: not part of the value (structuredClone drops it).
            const unmarked = (x: unknown) => (g.otherAsUnknown === true ? structuredClone(x) : x);
            if (!isDeepStrictEqual(unmarked(out), v) || !isDeepStrictEqual(unmarked(input), v)) {
              throw new Error(`parse${name} changed a valid value: ${show(v)} became ${show(out)}`);
            }
          }
          if (out === FAIL) {
            if (ctx.error === undefined)
              throw new Error(`parse${name} failed without an error on ${show(v)}`);
          } else if (!oracle.valid(name, out) && !ctx.diagnostics.some(isUnknownKind)) {
            // Property 3: a repaired value is valid, unless it keeps something this schema does not know.
            throw new Error(
              `parse${name} accepted ${show(v)} as ${show(out)} (${show(ctx.diagnostics)}) but ajv rejects it: ${oracle.explain(name, out)}`,
            );
          }
          if (out !== FAIL && ctx.error !== undefined)
            throw new Error(`parse${name} succeeded with a stale error`);
        }),
        { seed: seedFor(name) ^ 0x5a5a, numRuns },
      );
    });
  });
}

/** The string tags `values` carry under `key`. */
export function tagsOf(values: unknown[], key: string): Set<unknown> {
  return new Set(values.map((v) => (v as Record<string, unknown>)[key]).filter((t) => typeof t === 'string'));
}

/** The tags a union definition's branches name under `key`. */
export function branchTags(o: Oracle, def: string, key: string): Set<unknown> {
  const union = (o.doc.$defs[def]!.oneOf ?? o.doc.$defs[def]!.anyOf)! as {
    properties?: Record<string, { const?: unknown }>;
  }[];
  return new Set(union.map((b) => b.properties?.[key]?.const).filter((t) => typeof t === 'string'));
}

/** A valid example: ajv, the checker and the lenient parser all accept it, and the parser leaves it alone. */
export function expectValid(
  o: Oracle,
  name: string,
  check: Checker,
  parse: Parser,
  value: unknown,
  label: string,
): void {
  expect(o.valid(name, value), `${label}: ajv rejects the corpus example: ${o.explain(name, value)}`).toBe(
    true,
  );
  expect(check(value), `${label}: check${name}`).toBe(true);
  const input = structuredClone(value);
  const { out, ctx, threw } = lenient(parse, input);
  expect(threw, label).toBeUndefined();
  expect(ctx.error, label).toBeUndefined();
  expect(out, label).not.toBe(FAIL);
  expect(ctx.diagnostics, label).toEqual([]);
  expect(isDeepStrictEqual(out, value), `${label}: parse changed a valid value`).toBe(true);
}

/** An invalid example: ajv and the checker reject it; the parser fails with a path or reports why it kept it. */
export function expectInvalid(
  o: Oracle,
  name: string,
  check: Checker,
  parse: Parser,
  value: unknown,
  label: string,
): void {
  expect(o.valid(name, value), `${label}: ajv accepts the invalid corpus example`).toBe(false);
  expect(check(value), `${label}: check${name}`).toBe(false);
  const { out, ctx, threw } = lenient(parse, structuredClone(value));
  expect(threw, label).toBeUndefined();
  if (out === FAIL) expect(ctx.error, label).toBeDefined();
  else expect(ctx.diagnostics.length, `${label}: repaired silently`).toBeGreaterThan(0);
}

/** The corpus: every method has examples; each example and definition example is judged like ajv does. */
export function describeCorpus(
  g: GeneratedSchema,
  methodExamples: Record<string, MethodExamples>,
  validDefs: Record<string, unknown[]>,
  invalidDefs: Record<string, unknown[]>,
): void {
  const { label, oracle, validators: module, table } = g;
  it(`covers every ${label} method, params and result`, () => {
    for (const [method, info] of table) {
      const ex = methodExamples[method];
      expect(ex, method).toBeDefined();
      expect(ex!.params.length, method).toBeGreaterThan(0);
      if (info.kind === 'request') expect(ex!.result?.length ?? 0, method).toBeGreaterThan(0);
    }
    expect(Object.keys(methodExamples).filter((m) => !table.has(m))).toEqual([]);
  });

  for (const [method, ex] of Object.entries(methodExamples)) {
    it(`${method}: params and result examples`, () => {
      const info = table.get(method)!;
      const judge = (which: 'params' | 'result', values: unknown[] | undefined, valid: boolean) => {
        const type = which === 'params' ? info.paramsType : info.resultType!;
        const check = which === 'params' ? info.checkParams : info.checkResult!;
        const parse = which === 'params' ? info.parseParams : info.parseResult!;
        values?.forEach((v, i) =>
          (valid ? expectValid : expectInvalid)(
            oracle,
            type,
            check,
            parse,
            v,
            `${method} ${valid ? which : `invalid ${which}`}[${i}]`,
          ),
        );
      };
      judge('params', ex.params, true);
      judge('params', ex.invalidParams, false);
      judge('result', ex.result, true);
      judge('result', ex.invalidResult, false);
    });
  }

  for (const name of new Set([...Object.keys(validDefs), ...Object.keys(invalidDefs)])) {
    it(`${name}: valid and invalid examples`, () => {
      const { check, parse } = fns(module, name);
      validDefs[name]?.forEach((v, i) => expectValid(oracle, name, check, parse, v, `${name} valid[${i}]`));
      invalidDefs[name]?.forEach((v, i) =>
        expectInvalid(oracle, name, check, parse, v, `${name} invalid[${i}]`),
      );
    });
  }
}

/**
 * The generated validators as CommonJS files the bundle loads on first use (lazy-schema.ts): the
 * stubs export every function of each set, and a bundle built with them (into a temp directory)
 * checks and parses the corpora exactly as the sources do, its own `FAIL` and unknown variants
 * included.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sourceV1Unstable from '../packages/protocol/src/schema/unstable/validators.gen.ts';
import { parseWith, type Parser } from '../packages/protocol/src/schema/runtime.ts';
import { INVALID_DEFS, VALID_DEFS } from '../packages/protocol/src/schema/test-support/corpus.ts';
import { INVALID_DEFS_V2, VALID_DEFS_V2 } from '../packages/protocol/src/schema/test-support/corpus-v2.ts';
import * as sourceV2Unstable from '../packages/protocol/src/schema/v2/unstable/validators.gen.ts';
import * as sourceV2 from '../packages/protocol/src/schema/v2/validators.gen.ts';
import * as sourceV1 from '../packages/protocol/src/schema/validators.gen.ts';
import { bundleOptions, ROOT } from './bundle.ts';
import {
  lazyValidators,
  validatorExports,
  validatorSetsBuildOptions,
  VALIDATOR_SETS,
} from './lazy-schema.ts';

type Functions = Record<string, (x: unknown, c?: unknown) => unknown>;
type Built = {
  v1: Functions;
  v1Unstable: Functions;
  v2: Functions;
  v2Unstable: Functions;
  parseWith: typeof parseWith;
};

const SOURCES: Record<keyof Omit<Built, 'parseWith'>, Functions> = {
  v1: sourceV1 as unknown as Functions,
  v1Unstable: sourceV1Unstable as unknown as Functions,
  v2: sourceV2 as unknown as Functions,
  v2Unstable: sourceV2Unstable as unknown as Functions,
};

let dir: string;
let built: Built;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acp-lazy-schema-'));
  await build(validatorSetsBuildOptions(ROOT, dir, true));
  const at = (source: string): string => JSON.stringify(join(ROOT, source));
  const [v1, v1Unstable, v2, v2Unstable] = VALIDATOR_SETS.map((set) => at(set.source));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export * as v1 from ${v1};`,
      `export * as v1Unstable from ${v1Unstable};`,
      `export * as v2 from ${v2};`,
      `export * as v2Unstable from ${v2Unstable};`,
      `export { parseWith } from ${at('packages/protocol/src/schema/runtime.ts')};`,
    ].join('\n'),
  );
  const options = bundleOptions();
  await build({
    ...options,
    entryPoints: { entry },
    outdir: dir,
    splitting: false,
    plugins: [lazyValidators(ROOT)],
    metafile: false,
  });
  built = (await import(pathToFileURL(join(dir, 'entry.js')).href)) as Built;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the validators loaded on first use (scripts/lazy-schema.ts)', () => {
  it('stub every function each generated set exports, and nothing else is exported there', () => {
    for (const set of VALIDATOR_SETS) {
      const names = validatorExports(readFileSync(join(ROOT, set.source), 'utf8')).sort();
      const key = (['v1', 'v1Unstable', 'v2', 'v2Unstable'] as const)[VALIDATOR_SETS.indexOf(set)]!;
      expect(names).toEqual(Object.keys(SOURCES[key]).sort());
      expect(Object.keys(built[key]).sort()).toEqual(names);
    }
    expect(() => validatorExports('export const X = 1;\nexport function checkY(x) {}')).toThrow(
      /other than functions/,
    );
  });

  it('check and parse every corpus value as the sources do, with the bundle’s own FAIL', () => {
    const corpora = [
      { sets: ['v1', 'v1Unstable'] as const, valid: VALID_DEFS, invalid: INVALID_DEFS },
      { sets: ['v2', 'v2Unstable'] as const, valid: VALID_DEFS_V2, invalid: INVALID_DEFS_V2 },
    ];
    let compared = 0;
    let failed = 0;
    for (const { sets, valid, invalid } of corpora) {
      for (const key of sets) {
        const source = SOURCES[key];
        const lazy = built[key];
        for (const [name, values] of [...Object.entries(valid), ...Object.entries(invalid)]) {
          const check = `check${name}`;
          const parse = `parse${name}`;
          if (!(check in source)) continue;
          for (const value of values) {
            expect(lazy[check]!(structuredClone(value)), `${key} ${check}`).toBe(
              source[check]!(structuredClone(value)),
            );
            const fromBundle = built.parseWith(lazy[parse] as Parser, structuredClone(value));
            const fromSource = parseWith(source[parse] as Parser, structuredClone(value));
            expect(fromBundle, `${key} ${parse} ${JSON.stringify(value)}`).toEqual(fromSource);
            compared++;
            if (!fromSource.ok) failed++;
          }
        }
      }
    }
    // Both outcomes were compared: valid values and values the lenient parse rejects.
    expect(compared).toBeGreaterThan(200);
    expect(failed).toBeGreaterThan(10);
  });

  it('load each set through the loader bin/acp.cjs leaves (with its code cache) when there is one', async () => {
    const loaded: string[] = [];
    const key = Symbol.for('acp-kit.require-dist');
    const global = globalThis as Record<symbol, unknown>;
    global[key] = (file: string) => {
      loaded.push(file);
      return createRequire(import.meta.url)(file);
    };
    try {
      // A fresh copy of the built entry: its sets are not loaded yet.
      const copy = (await import(`${pathToFileURL(join(dir, 'entry.js')).href}?fresh`)) as Built;
      expect(copy.v2.checkSessionId!('s')).toBe(true);
      expect(loaded).toEqual([join(dir, 'schema-v2.cjs')]);
    } finally {
      delete global[key];
    }
  });

  it('keep an unknown variant marked as the bundle’s isUnknownVariant sees it', () => {
    const update = { sessionId: 's', update: { sessionUpdate: 'from_a_newer_agent', extra: 1 } };
    const result = built.parseWith(built.v1.parseSessionNotification as Parser, update);
    expect(result.ok).toBe(true);
    const parsed = (result as { value: { update: object } }).value.update;
    expect(Object.getOwnPropertySymbols(parsed).map(String)).toEqual(['Symbol(acp-kit.unknownVariant)']);
  });
});

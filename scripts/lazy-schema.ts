/**
 * The protocol's generated validators (four sets, ~880 KiB minified: v1 and v2, each stable and
 * unstable) as CommonJS files of their own that the bundle loads on first use, instead of ES
 * module code that every start compiles. A reopened session is printed before any message is
 * validated: before, compiling the four sets was ~38 ms of the ~130 ms the terminal UI's modules
 * took to load, on the way to the first frame of history. The first validation (the handshake
 * with the agent) then loads the set it needs, while the agent is starting anyway.
 *
 * Why not a dynamic `import()`: a validator is called synchronously by the protocol engine, and
 * esbuild places a module in the chunk of every entry that reaches it through any import,
 * re-exports included, so every barrel that names the connections pulled the validators into the
 * UI's first chunks.
 *
 * In the bundle each `validators.gen.ts` is a module of stubs with the same exports, each one
 * calling the real function, loaded synchronously on the first call: through bin/acp.cjs's loader,
 * which keeps V8's code cache beside the file (a set then compiles in ~2 ms instead of 8-17), or
 * with `require`. The CommonJS file's imports of the schema runtime (`FAIL`, `UNKNOWN_VARIANT`,
 * `ParseContext`…) are the bundle's own objects, handed over by the stubs: identity matters for
 * the sentinels.
 * Sources and tests are unchanged; `scripts/lazy-schema.test.ts` checks the bundled stubs against
 * the sources, and `scripts/bundle.test.ts` that no ES module chunk holds validator code.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';

/** Where the generated validator sets are, relative to the repository root. */
const SCHEMA_DIR = 'packages/protocol/src/schema';

/** The generated validator modules, each with the name of its CommonJS file in dist/. */
export const VALIDATOR_SETS: readonly { readonly source: string; readonly file: string }[] = [
  { source: `${SCHEMA_DIR}/validators.gen.ts`, file: 'schema-v1.cjs' },
  { source: `${SCHEMA_DIR}/unstable/validators.gen.ts`, file: 'schema-v1-unstable.cjs' },
  { source: `${SCHEMA_DIR}/v2/validators.gen.ts`, file: 'schema-v2.cjs' },
  { source: `${SCHEMA_DIR}/v2/unstable/validators.gen.ts`, file: 'schema-v2-unstable.cjs' },
];

/** The global the stubs hand the schema runtime over by (read once by each CommonJS file). */
const RUNTIME_KEY = 'acp-kit.schema-runtime';
/**
 * The global where bin/acp.cjs leaves its loader of dist's CommonJS files, which keeps V8's code
 * cache beside them (Node 20 has none of its own): a set compiles in ~2 ms instead of ~10-17.
 * Without it (the bundle run another way), `require`.
 */
const REQUIRE_KEY = 'acp-kit.require-dist';

const EXPORTED_FUNCTION = /^export function ([A-Za-z_$][\w$]*)\(/gm;

/** The functions a generated validator module exports (all of them take `(x)` or `(x, c)`). */
export function validatorExports(source: string): string[] {
  const names = [...source.matchAll(EXPORTED_FUNCTION)].map((match) => match[1] as string);
  const other = source.match(/^export (?!function )/m);
  if (other)
    throw new Error(`a generated validator module exports something other than functions: ${other[0]}…`);
  return names;
}

/** The stub module standing for one validator set in the bundle. */
export function stubModule(source: string, file: string, runtimePath: string): string {
  const lines = [
    `import * as runtime from ${JSON.stringify(runtimePath)};`,
    'let real;',
    'function load() {',
    `  globalThis[Symbol.for(${JSON.stringify(RUNTIME_KEY)})] = runtime;`,
    `  const file = require.resolve(${JSON.stringify(`./${file}`)});`,
    `  const cached = globalThis[Symbol.for(${JSON.stringify(REQUIRE_KEY)})];`,
    '  real = cached ? cached(file) : require(file);',
    '  return real;',
    '}',
  ];
  for (const name of validatorExports(source))
    lines.push(`export function ${name}(x, c) { return (real ?? load()).${name}(x, c); }`);
  return `${lines.join('\n')}\n`;
}

function setOf(path: string, root: string) {
  const at = relative(root, path).split('\\').join('/');
  return VALIDATOR_SETS.find((set) => set.source === at);
}

/** Replaces each generated validator module by its stubs (the main bundle). */
export function lazyValidators(root: string): Plugin {
  return {
    name: 'lazy-validators',
    setup(builder) {
      // The stubs' `require.resolve('./schema-….cjs')`: a file beside the chunks, not bundled.
      builder.onResolve({ filter: /^\.\/schema-v[\w-]+\.cjs$/ }, (args) => ({
        path: args.path,
        external: true,
      }));
      builder.onLoad({ filter: /[\\/]schema[\\/](.+[\\/])?validators\.gen\.ts$/ }, (args) => {
        const set = setOf(args.path, root);
        if (!set) return undefined;
        const runtime = join(root, SCHEMA_DIR, 'runtime.ts');
        return {
          contents: stubModule(readFileSync(args.path, 'utf8'), set.file, runtime),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/** The values the schema runtime exports (what generated code may import from it). */
export function runtimeExports(source: string): string[] {
  return [...source.matchAll(/^export (?:const|function|class) ([A-Za-z_$][\w$]*)/gm)].map(
    (match) => match[1] as string,
  );
}

/**
 * The schema runtime inside a validator set's CommonJS file: the bundle's own objects, handed
 * over, as bindings of their own (the generated code then calls `isObject(x)`, not a property of
 * an imported module object, as in the ES modules).
 */
function runtimeFromBundle(root: string): Plugin {
  return {
    name: 'schema-runtime-from-bundle',
    setup(builder) {
      builder.onResolve({ filter: /[\\/]runtime\.js$/ }, (args) =>
        args.importer.endsWith('validators.gen.ts')
          ? { path: 'schema-runtime', namespace: 'schema-runtime' }
          : undefined,
      );
      builder.onLoad({ filter: /.*/, namespace: 'schema-runtime' }, () => {
        const names = runtimeExports(readFileSync(join(root, SCHEMA_DIR, 'runtime.ts'), 'utf8'));
        return {
          contents: `export const { ${names.join(', ')} } = globalThis[Symbol.for(${JSON.stringify(RUNTIME_KEY)})];\n`,
          loader: 'js',
        };
      });
    },
  };
}

/** The esbuild build of the validator sets' CommonJS files into `outdir`. */
export function validatorSetsBuildOptions(root: string, outdir: string, minify: boolean): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: Object.fromEntries(
      VALIDATOR_SETS.map((set) => [set.file.replace(/\.cjs$/, ''), set.source]),
    ),
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [runtimeFromBundle(root)],
    minifySyntax: minify,
    minifyWhitespace: minify,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/**
 * Builds the `acp-kit` package (packages/cli) as an esbuild bundle with no runtime dependencies:
 * chunks in `packages/cli/dist/` (`cli.cjs` is the entry; each command's implementation, the
 * terminal UI and the agent are chunks loaded on demand), split by esbuild as ES modules and then
 * made CommonJS files for V8's code cache (commonjs-chunks.ts), `quick.cjs` (the same command line as
 * one CommonJS file, for `acp --version` and `acp --help`), the protocol's validators as CommonJS
 * files loaded on their first use (`schema-*.cjs`, lazy-schema.ts), `dist/metafile.json` (not
 * shipped) and `THIRD_PARTY_LICENSES.md` for the bundled packages.
 *
 *   npx tsx scripts/bundle.ts [--no-minify] [--outdir DIR]
 *
 * `npm run build` runs it. `--no-minify --outdir /tmp/acp-prof/dist` gives readable chunks for
 * `node --cpu-prof` profiles (run /tmp/acp-prof/dist/cli.cjs; its package.json is copied beside).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { ESM_REQUIRE_BANNER, toCommonJs, withoutTopLevelAwait } from './commonjs-chunks.ts';
import { patchInk, type InkModule } from './ink-frame-patch.ts';
import { lazyIntl } from './lazy-intl.ts';
import { lazyValidators, validatorSetsBuildOptions } from './lazy-schema.ts';
import { thirdPartyLicenses } from './third-party-licenses.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The package that is published as the `acp-kit` bundle. */
export const BUNDLE_PACKAGE_DIR = join(ROOT, 'packages/cli');
/** The entry module, relative to the repository root (as esbuild's metafile names inputs). */
export const ENTRY = 'packages/cli/src/cli.ts';

/**
 * Ink's frames reuse the widths of texts and the text of lines and rows from earlier frames, and
 * its throttles start no idle timers and its cache of laid-out text sizes is bounded (see
 * ink-frame-patch.ts); the build fails when Ink's modules are not the text the patch was written
 * for.
 */
export const inkFrameCache: Plugin = {
  name: 'ink-frame-cache',
  setup(builder) {
    builder.onLoad(
      { filter: /[\\/]ink[\\/]build[\\/](output|render-node-to-output|ink|measure-text|sanitize-ansi)\.js$/ },
      (args) => ({
        contents: patchInk(basename(args.path) as InkModule, readFileSync(args.path, 'utf8')),
        loader: 'js',
      }),
    );
  },
};

/**
 * The MCP SDK's client and server packages each inline the same AJV-backed validator (~210 KiB);
 * the server's Node shim re-exports the client's copy instead. The build fails when the shim is no
 * longer the text this was written for (an SDK update: check the validators are still the same).
 */
const oneMcpValidator: Plugin = {
  name: 'one-mcp-validator',
  setup(builder) {
    builder.onLoad(
      { filter: /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]shimsNode\.mjs$/ },
      (args) => {
        const source = readFileSync(args.path, 'utf8');
        const expected =
          /^import \{ n as AjvJsonSchemaValidator \} from "\.\/ajvProvider-[\w-]+\.mjs";\nimport process from "node:process";\n\nexport \{ AjvJsonSchemaValidator as DefaultJsonSchemaValidator, process \};/;
        if (!expected.test(source))
          throw new Error('one-mcp-validator: the server shim changed; update the plugin');
        return {
          contents:
            "import process from 'node:process';\n" +
            "export { DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/_shims';\n" +
            'export { process };\n',
          loader: 'js',
          resolveDir: ROOT,
        };
      },
    );
  },
};

/** The bundle's `string-width`: the same widths, without the grapheme segmenter for simple text. */
const STRING_WIDTH_FAST = fileURLToPath(new URL('./string-width-fast.ts', import.meta.url));

/**
 * Every import of `string-width` (Ink's layout and output, widest-line, cli-truncate, ours) gets
 * string-width-fast.ts, which measures the same (string-width-fast.test.ts) and segments only text
 * that needs it; its own import gets the package.
 */
const fastStringWidth: Plugin = {
  name: 'fast-string-width',
  setup(builder) {
    builder.onResolve({ filter: /^string-width$/ }, (args) =>
      args.importer === STRING_WIDTH_FAST ? undefined : { path: STRING_WIDTH_FAST },
    );
  },
};

/**
 * `ws` loads the optional native add-ons `bufferutil` and `utf-8-validate` in a try block and works
 * without them: they are not bundled, and requiring them throws as when they are not installed.
 */
const withoutOptionalNativeAddons: Plugin = {
  name: 'without-optional-native-addons',
  setup(builder) {
    builder.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({
      path: args.path,
      namespace: 'optional-native-addon',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'optional-native-addon' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the acp bundle`)});\n`,
      loader: 'js',
    }));
  },
};

/**
 * commander requires `node:child_process` at load for executable subcommands, which acp does not
 * have: loading it costs every start (~4% of `acp --help`) and is deferred to its first use.
 */
export const commanderLazyChildProcess: Plugin = {
  name: 'commander-lazy-child-process',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager))
        throw new Error('commander-lazy-child-process: commander changed; update the patch');
      const lazy =
        "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * The modules main.ts imports when it needs them (commands, the error report, the UI): `--version`
 * and `--help` run none, so the CommonJS builds bundle none. Importing one throws an error with the
 * code `ACP_NOT_BUNDLED`, on which dist/start.cjs has the ES module entry run the program instead
 * (packages/cli/src/start.ts). quick.ts's own import of main.ts is bundled.
 */
const notBundled: Plugin = {
  name: 'not-bundled',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && !args.importer.endsWith('quick.ts')
        ? { path: args.path, namespace: 'not-bundled' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'not-bundled' }, (args) => ({
      contents: `throw Object.assign(new Error(${JSON.stringify(`${args.path} is not part of acp's CommonJS start (dist/quick.cjs, dist/start.cjs)`)}), { code: 'ACP_NOT_BUNDLED' });\n`,
      loader: 'js',
    }));
  },
};

/** The entry of `acp --version` and `acp --help` (bin/acp.cjs requires its build, dist/quick.cjs). */
export const QUICK_ENTRY = 'packages/cli/src/quick.ts';
/** The entry of `acp` with options only, the UI's start (bin/acp.cjs requires its build, dist/start.cjs). */
export const START_ENTRY = 'packages/cli/src/start.ts';
/** The ES module rest of the UI's start, which dist/start.cjs imports after the first frame. */
export const AFTER_FRAME_ENTRY = 'packages/cli/src/after-frame.ts';

/**
 * `acp --version` and `acp --help` as one CommonJS file, and the UI's start until its first frame as
 * another: the same program (main.ts), which Node loads without starting its ES module loader
 * (packages/cli/src/quick.ts and start.ts say why).
 */
export function quickBundleOptions(options: { outdir?: string; minify?: boolean } = {}): BuildOptions {
  const minify = options.minify ?? true;
  return {
    absWorkingDir: ROOT,
    entryPoints: { quick: QUICK_ENTRY, start: START_ENTRY },
    outdir: options.outdir ?? join(BUNDLE_PACKAGE_DIR, 'dist'),
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['@acp-kit/source'],
    define: { 'import.meta.url': '__acpModuleUrl', 'import.meta.resolve': 'undefined' },
    banner: { js: "const __acpModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [notBundled, commanderLazyChildProcess],
    minifySyntax: minify,
    minifyWhitespace: minify,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  };
}

/** What esbuild is given (exported for the chunk-graph test, which builds in memory). */
export function bundleOptions(options: { outdir?: string; minify?: boolean } = {}): BuildOptions {
  const minify = options.minify ?? true;
  return {
    absWorkingDir: ROOT,
    entryPoints: { cli: ENTRY, 'after-frame': AFTER_FRAME_ENTRY },
    outdir: options.outdir ?? join(BUNDLE_PACKAGE_DIR, 'dist'),
    // Chunks sit next to cli.cjs: `new URL('../package.json', import.meta.url)` (the agent's
    // version) then still finds the package's manifest, as it does from src/ and dist/.
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@acp-kit/source'],
    jsx: 'automatic',
    // React and Ink check NODE_ENV: production drops their development-only code paths.
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [
      withoutTopLevelAwait,
      inkFrameCache,
      lazyIntl,
      fastStringWidth,
      withoutOptionalNativeAddons,
      commanderLazyChildProcess,
      oneMcpValidator,
      lazyValidators(ROOT),
    ],
    // CommonJS dependencies (React, highlight.js, the MCP SDK's deps) require() Node built-ins.
    banner: { js: ESM_REQUIRE_BANNER },
    minifySyntax: minify,
    minifyWhitespace: minify,
    // Licenses are shipped whole in THIRD_PARTY_LICENSES.md instead.
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  };
}

/** Builds the bundle into `outdir` (emptied first) and writes the metafile and the licenses. */
export async function writeBundle(options: { outdir?: string; minify?: boolean } = {}): Promise<Metafile> {
  const config = bundleOptions(options);
  const outdir = config.outdir as string;
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const { metafile } = await build(config);
  if (!metafile) throw new Error('esbuild returned no metafile');
  // CommonJS, for V8's code cache (commonjs-chunks.ts); the metafile keeps the chunk graph.
  toCommonJs(outdir, options.minify ?? true);
  await build(
    quickBundleOptions({ outdir, ...(options.minify !== undefined ? { minify: options.minify } : {}) }),
  );
  await build(validatorSetsBuildOptions(ROOT, outdir, options.minify ?? true));
  writeFileSync(join(outdir, 'metafile.json'), JSON.stringify(metafile));
  // Next to dist/, where the package's README and LICENSE are.
  const packageDir = join(outdir, '..');
  writeFileSync(join(packageDir, 'THIRD_PARTY_LICENSES.md'), thirdPartyLicenses(metafile, ROOT));
  // A build elsewhere (for profiles) is a whole package: the code reads its version from there.
  if (resolve(packageDir) !== BUNDLE_PACKAGE_DIR)
    copyFileSync(join(BUNDLE_PACKAGE_DIR, 'package.json'), join(packageDir, 'package.json'));
  return metafile;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const outdir = process.argv[process.argv.indexOf('--outdir') + 1];
  const metafile = await writeBundle({
    minify: !process.argv.includes('--no-minify'),
    ...(process.argv.includes('--outdir') && outdir ? { outdir: resolve(outdir) } : {}),
  });
  const outputs = Object.entries(metafile.outputs);
  const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
  process.stdout.write(`acp-kit bundle: ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KiB\n`);
}

/**
 * Builds the `acp-kit` package (packages/cli) as an esbuild bundle with no runtime dependencies:
 * ESM chunks in `packages/cli/dist/` (`cli.js` is the entry; each command's implementation, the
 * terminal UI and the agent are chunks loaded on demand), `dist/metafile.json` (not shipped) and
 * `THIRD_PARTY_LICENSES.md` for the bundled packages.
 *
 *   npx tsx scripts/bundle.ts [--no-minify] [--outdir DIR]
 *
 * `npm run build` runs it. `--no-minify --outdir /tmp/acp-prof/dist` gives readable chunks for
 * `node --cpu-prof` profiles (run /tmp/acp-prof/dist/cli.js; its package.json is copied beside).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { patchInk } from './ink-frame-patch.ts';
import { thirdPartyLicenses } from './third-party-licenses.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The package that is published as the `acp-kit` bundle. */
export const BUNDLE_PACKAGE_DIR = join(ROOT, 'packages/cli');
/** The entry module, relative to the repository root (as esbuild's metafile names inputs). */
export const ENTRY = 'packages/cli/src/cli.ts';

/** Ink connects to React DevTools when DEV=true; that package is not bundled, so this does nothing. */
const withoutDevtools: Plugin = {
  name: 'without-react-devtools',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]ink[\\/]build[\\/]devtools\.js$/ }, () => ({
      contents: '// React DevTools are not part of the acp bundle.\n',
      loader: 'js',
    }));
  },
};

/**
 * Yoga's wasm is embedded as base64; its loader decodes it directly unless `fetch` exists, in
 * which case it fetches the data: URL, which starts Node's whole fetch stack (~25 ms).
 */
const yogaWithoutFetch: Plugin = {
  name: 'yoga-without-fetch',
  setup(builder) {
    builder.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const patched = source.replaceAll('"function"!=typeof fetch', 'true');
      if (patched === source) throw new Error('yoga-without-fetch: the loader changed; update the patch');
      return { contents: patched, loader: 'js' };
    });
  },
};

/**
 * Ink's frames reuse the widths of texts and the text of lines and rows from earlier frames (see
 * ink-frame-patch.ts); the build fails when Ink's modules are not the text the patch was written for.
 */
export const inkFrameCache: Plugin = {
  name: 'ink-frame-cache',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]ink[\\/]build[\\/](output|render-node-to-output)\.js$/ }, (args) => ({
      contents: patchInk(
        args.path.endsWith('render-node-to-output.js') ? 'render-node-to-output.js' : 'output.js',
        readFileSync(args.path, 'utf8'),
      ),
      loader: 'js',
    }));
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

/** What esbuild is given (exported for the chunk-graph test, which builds in memory). */
export function bundleOptions(options: { outdir?: string; minify?: boolean } = {}): BuildOptions {
  const minify = options.minify ?? true;
  return {
    absWorkingDir: ROOT,
    entryPoints: { cli: ENTRY },
    outdir: options.outdir ?? join(BUNDLE_PACKAGE_DIR, 'dist'),
    // Chunks sit next to cli.js: `new URL('../package.json', import.meta.url)` (the agent's
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
    plugins: [withoutDevtools, yogaWithoutFetch, inkFrameCache, fastStringWidth, withoutOptionalNativeAddons],
    // CommonJS dependencies (React, highlight.js, the MCP SDK's deps) require() Node built-ins.
    banner: {
      js: "import { createRequire as __acpRequire } from 'node:module'; const require = __acpRequire(import.meta.url);",
    },
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

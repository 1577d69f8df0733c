/**
 * The bundle's chunks as CommonJS files. esbuild splits code into chunks only as ES modules, and
 * Node 20 keeps no compiled code for ES modules between runs: compiling the UI's ~1.7 MB of chunks
 * was a fifth of reopening a long session (docs/performance.md, "The twelfth round"). bin/acp.cjs
 * loads CommonJS files of dist/ with V8's code cache kept beside them, so each chunk is turned into
 * one after the build (`toCommonJs`), and what kept them from being one (a top-level `await`) is
 * patched out of the packages that had it (`withoutTopLevelAwait`).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync, type Plugin } from 'esbuild';

/** The banner of the ES module chunks: `require` for the CommonJS packages they bundle. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __acpRequire } from 'node:module'; const require = __acpRequire(import.meta.url);";

/** What `import.meta` gives in a chunk once it is CommonJS (as dist/start.cjs has it). */
const COMMONJS_BANNER =
  "const __acpModuleUrl = require('node:url').pathToFileURL(__filename).href;" +
  "const __acpResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;";

/** Replaces `from` in `source` once, or fails the build when the package's text changed. */
function patched(name: string, source: string, from: string | RegExp, to: string): string {
  const result = source.replace(from, to);
  if (result === source) throw new Error(`${name}: the package's text changed; update the patch`);
  return result;
}

/**
 * The packages' top-level `await`s, which a CommonJS file cannot have:
 * - Yoga (Ink's layout) instantiates its WebAssembly module with promises. It is instantiated at
 *   once instead (its bytes are embedded, so nothing is waited for), and the loader returns the
 *   initialised module rather than a promise of it. Without `fetch`, too: the loader fetched its
 *   embedded data: URL when `fetch` exists, which starts Node's whole fetch stack (~25 ms).
 * - Ink's reconciler imports React DevTools and reads its own package.json when `DEV=true`:
 *   neither is part of the bundle (DevTools are not bundled; the name was only for them), so
 *   with that import gone Ink's devtools.js is not bundled either.
 */
export const withoutTopLevelAwait: Plugin = {
  name: 'without-top-level-await',
  setup(builder) {
    builder.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
      const name = 'yoga-sync';
      let source = readFileSync(args.path, 'utf8');
      // The instantiation: the module's bytes (wa(), decoded from the embedded base64) at once.
      source = patched(
        name,
        source,
        /\(function\(\)\{return w\|\|"function"!=typeof WebAssembly\.instantiateStreaming\|\|ua\(H\)\|\|"function"!=typeof fetch\?c\(b\):fetch\(H,\{credentials:"same-origin"\}\)\.then\(function\(e\)\{return WebAssembly\.instantiateStreaming\(e,d\)\.then\(b,function\(f\)\{v\("wasm streaming compile failed: "\+f\);v\("falling back to ArrayBuffer instantiation"\);return c\(b\)\}\)\}\)\}\)\(\)\.catch\(ca\);return\{\}/,
        'a(new WebAssembly.Instance(new WebAssembly.Module(wa()),d));return{}',
      );
      source = patched(name, source, '  return loadYoga.ready\n', '  return loadYoga\n');
      return { contents: source, loader: 'js' };
    });
    builder.onLoad({ filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (args) => ({
      contents: patched(
        'yoga-sync',
        readFileSync(args.path, 'utf8'),
        'const Yoga = wrapAssembly(await loadYoga());',
        'const Yoga = wrapAssembly(loadYoga());',
      ),
      loader: 'js',
    }));
    builder.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      const name = 'ink-reconciler-without-devtools';
      let source = readFileSync(args.path, 'utf8');
      source = patched(
        name,
        source,
        /\nif \(isDev\(\)\) \{\n {4}try \{\n {8}await import\('\.\/devtools\.js'\);[\s\S]*?\n\}\nconst diff = /,
        '\nconst diff = ',
      );
      source = patched(
        name,
        source,
        /const packageJson = isDev\(\)\n {4}\? await loadPackageJson\(\)\n {4}: \{ name: undefined, version: undefined \};/,
        'const packageJson = { name: undefined, version: undefined };',
      );
      return { contents: source, loader: 'js' };
    });
  },
};

/**
 * Turns every ES module chunk of `outdir` (`*.js`, built with {@link ESM_REQUIRE_BANNER}) into a
 * CommonJS file (`*.cjs`) and removes the ES module. Imports of other chunks become `require`s of
 * their CommonJS names; `import()` of a chunk becomes a `require` on demand (esbuild's own
 * conversion: a chunk's top level still runs on its first import only).
 */
export function toCommonJs(outdir: string, minify: boolean): void {
  for (const file of readdirSync(outdir)) {
    if (!file.endsWith('.js')) continue;
    const path = join(outdir, file);
    const source = readFileSync(path, 'utf8');
    if (!source.startsWith(ESM_REQUIRE_BANNER))
      throw new Error(`toCommonJs: ${file} does not start with the ES module banner`);
    const { code } = transformSync(source.slice(ESM_REQUIRE_BANNER.length), {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // `import()` of a chunk as a `require` of it, on demand.
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__acpModuleUrl', 'import.meta.resolve': '__acpResolve' },
      banner: COMMONJS_BANNER,
      minifySyntax: minify,
      minifyWhitespace: minify,
      legalComments: 'none',
      logLevel: 'error',
    });
    const requires = code.replace(/require\((["'])\.\/([\w.-]+)\.js\1\)/g, 'require($1./$2.cjs$1)');
    if (/(["'])\.\/[\w.-]+\.js\1/.test(requires))
      throw new Error(`toCommonJs: ${file} names another chunk other than in a require()`);
    writeFileSync(join(outdir, file.replace(/\.js$/, '.cjs')), requires);
    rmSync(path);
  }
}

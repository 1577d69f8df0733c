#!/usr/bin/env node
/**
 * Bundles the terminal UI (with the client engine and protocol, Ink, React in production mode,
 * marked, diff and highlight.js) into one ESM file for fast startup:
 *
 *   node packages/tui/scripts/bundle.mjs [--out FILE] [--metafile FILE]
 *
 * Default output: packages/tui/dist/bundle/acp-tui.mjs. Import it for `runTui`/`tuiMain`, or run
 * it: `node acp-tui.mjs [--agent NAME] [--cwd DIR] [--resume ID] [-- CMD ARGS]`.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const outfile = resolve(option('--out', join(root, 'dist/bundle/acp-tui.mjs')));

/**
 * Ink connects to React DevTools when DEV=true; that package is not a dependency, so in the
 * bundle the connection does nothing.
 */
const withoutDevtools = {
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
 * which case it fetches the data: URL, which starts Node's whole fetch stack (~25 ms). Decoding
 * directly is what it falls back to anyway.
 */
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(builder) {
    builder.onLoad({ filter: /yoga-wasm-base64-esm\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const patched = source.replaceAll('"function"!=typeof fetch', 'true');
      if (patched === source) throw new Error('yoga-without-fetch: the loader changed; update the patch');
      return { contents: patched, loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [join(root, 'src/bundle-entry.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@acp-kit/source'],
  jsx: 'automatic',
  // React and Ink check NODE_ENV: production drops their development-only code paths.
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [withoutDevtools, yogaWithoutFetch],
  // CommonJS dependencies (React, highlight.js) use require() for Node built-ins.
  banner: {
    js: "import { createRequire as __acpRequire } from 'node:module'; const require = __acpRequire(import.meta.url);",
  },
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

const metafile = option('--metafile');
if (metafile) writeFileSync(metafile, JSON.stringify(result.metafile));
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(`${outfile} (${(bytes / 1024).toFixed(0)} KiB)\n`);

#!/usr/bin/env node
// The `acp` command. dist/ holds the esbuild bundle (scripts/bundle.ts; `npm run build` in a clone).
// Plain CommonJS that any Node runs, so an old Node gets a clear message instead of a syntax error,
// which runs the bundle's CommonJS files (dist/) with V8's code cache kept beside them: `acp --version`
// and `acp --help` (dist/quick.cjs), the terminal UI until its first frame (dist/start.cjs), and
// the rest (dist/cli.cjs and the chunks it loads).
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`acp: Node.js 20.19 or newer is needed; this is Node.js ${process.version}.\n`);
  process.exit(1);
}

/** Says what to do when the bundle is not there (a clone that was not built); false for other errors. */
function missing(error, file) {
  if (
    error?.code !== 'MODULE_NOT_FOUND' &&
    error?.code !== 'ERR_MODULE_NOT_FOUND' &&
    error?.code !== 'ENOENT'
  )
    return false;
  if (!String(error.message).includes(file)) return false;
  process.stderr.write(`acp: ${file} is missing; in a clone of acp-kit, run \`npm run build\`.\n`);
  process.exitCode = 1;
  return true;
}

/**
 * The V8 flags this process has set so far (see `setFlags`): a code cache made under other flags is
 * one V8 rejects, so each cache file is named for the flags it was made under.
 */
let flagsKey = '';
/** Code caches to write: [script, file, flags they were compiled under]. */
const pendingCaches = [];

/**
 * Writes the code cache of every file loaded under the current flags (with what V8 compiled of
 * them so far: the functions that ran, too), once each. At exit, and before the flags change:
 * a cache made after a change is one V8 rejects where the file is loaded under the flags before it.
 */
function saveCodeCaches() {
  for (const [script, cacheFile, key] of pendingCaches.splice(0)) {
    if (key !== flagsKey) continue;
    try {
      const temporary = `${cacheFile}.${process.pid}`;
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only installation: no cache.
    }
  }
}
process.once('exit', saveCodeCaches);

/** Sets V8 flags, after writing the code caches made under the flags before. */
function setFlags(key, flags) {
  saveCodeCaches();
  require('node:v8').setFlagsFromString(flags);
  flagsKey = flagsKey ? `${flagsKey}+${key}` : key;
}

/**
 * Runs a CommonJS file of dist/ as `module` with V8's code cache kept beside it (Node 20 keeps
 * none for any file of its own; ≥ 22.1 has one, enabled below): compiling is a third of
 * `acp --help`, and a fifth of reopening a long session in the UI (its ~1.7 MB of chunks). The
 * cache is written after the first run where the package directory is writable, and V8 rejects one
 * that does not fit this Node, its flags or this file, which is then written again. A cache that
 * cannot be read or written only costs the compile.
 */
function runCached(module, file) {
  const source = readFileSync(file, 'utf8');
  const cacheFile = `${file}.${process.version}-${process.arch}${flagsKey ? `-${flagsKey}` : ''}.v8-cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // First run.
  }
  const vm = require('node:vm');
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData === undefined || script.cachedDataRejected)
    pendingCaches.push([script, cacheFile, flagsKey]);
  script
    .runInThisContext()
    .call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file));
}

const DIST = join(__dirname, '../dist');
/**
 * Node's loading of `.cjs` files, with the files of dist/ (the bundle's chunks, which require each
 * other as `.cjs` files: scripts/commonjs-chunks.ts) run with their code cache.
 */
function loadDistWithCodeCache() {
  const plain = Module._extensions['.cjs'] ?? Module._extensions['.js'];
  Module._extensions['.cjs'] = (module, file) =>
    dirname(file) === DIST ? runCached(module, file) : plain(module, file);
}

/**
 * Optimise only what runs 8x as long as V8's default asks (its "interrupt budget"). The UI runs a
 * little code per frame for a long time: with the default, V8's optimising compiler took each
 * function as it got warm (~5 compilations a second all through a streamed answer), costing more
 * CPU than the optimised code saved; hot loops (a flood, a long answer) still reach the budget
 * quickly.
 */
function optimiseLikeTheUi() {
  setFlags('interrupt-budget', '--interrupt-budget=540672');
}

/**
 * The built-in modules every command that talks to an agent loads (`acp run`, `agent`, `serve`,
 * the terminal UI), loaded before V8's flags change: after any flag changes, V8 rejects the code
 * cache Node keeps for its built-ins, and each one loaded then is compiled from its source
 * (node:crypto and its fifteen internal modules take ~3x the time). `acp run --agent demo hi`:
 * 0.91x the CPU.
 */
function loadBuiltinsFirst() {
  for (const name of ['child_process', 'fs/promises', 'os', 'string_decoder', 'timers/promises'])
    require(`node:${name}`);
  // What Node loads on first use of these: Web Crypto (globalThis.crypto) and the file streams.
  void require('node:crypto').webcrypto;
  void require('node:fs').WriteStream;
}

/**
 * V8 lets the old generation grow up to 4x what survived the last full collection before
 * collecting it again. 1.5x for the commands that take a message whole (`acp run`, `serve`,
 * `agent`…): one 60 MiB update peaked at 2.6x its size over an idle run, 3.0x without. Not for the
 * terminal UI, whose text is printed and let go as it streams: there it cost 4-15% more CPU
 * (paced stream, flood, a 10 MB answer) for ~3 MiB less resident at the end.
 */
function keepTheOldGenerationSmall() {
  setFlags('heap-growing', '--heap-growing-percent=50');
}

const args = process.argv.slice(2);
// Node ≥ 22.1 keeps V8's compiled code between runs (about a quarter of the UI's start); Node 20
// has no such cache (`enableCompileCache` is undefined there): this file keeps V8's code cache.
if (!Module.enableCompileCache?.()) loadDistWithCodeCache();
// The CommonJS files the bundle loads on first use (the protocol's validators: stubs in the chunks
// call this, scripts/lazy-schema.ts).
globalThis[Symbol.for('acp-kit.require-dist')] = (file) => require(file);
if (args.length === 1 && ['--version', '-V', '--help', '-h'].includes(args[0])) {
  const file = join(__dirname, '../dist/quick.cjs');
  try {
    require(file);
  } catch (error) {
    if (!missing(error, file)) throw error;
  }
} else if (args.length === 0 || args[0].startsWith('-')) {
  // No command word first: the terminal UI, most likely (`acp`, `acp --agent NAME`, `acp -- CMD`).
  // start.cjs runs the argument parser and draws the UI's first frame; for anything else the
  // parser decides (a command after options, an error, help) it runs dist/cli.cjs instead.
  const file = join(__dirname, '../dist/start.cjs');
  let start;
  try {
    ({ start } = require(file));
  } catch (error) {
    if (!missing(error, file)) throw error;
  }
  // Once start.cjs's own work is done (the first frame is drawn), before any chunk loads: the UI's
  // flags, with the built-in modules it uses loaded before them (setFlags writes start.cjs's code
  // cache first). The chunks are then read under the flags the UI runs with, and their caches,
  // written at exit, hold every function the session ran (its rendering too): reopening a long
  // session printed its newest items ~12% sooner than with the flags set once the chunks loaded.
  const leaveStart = () => {
    loadBuiltinsFirst();
    // The UI's own (its metrics and clocks; a bundled package's assertions).
    require('node:perf_hooks');
    require('node:assert');
    optimiseLikeTheUi();
  };
  start?.(async (chunk) => require(chunk), leaveStart).catch((error) => {
    process.exitCode = 1;
    throw error;
  });
} else {
  // Before the bundle loads, so that all of it is counted this way; the built-ins first.
  loadBuiltinsFirst();
  optimiseLikeTheUi();
  keepTheOldGenerationSmall();
  const file = join(__dirname, '../dist/cli.cjs');
  try {
    require(file);
  } catch (error) {
    if (!missing(error, file)) throw error;
  }
}

#!/usr/bin/env node
// The `acp` command. dist/ holds the esbuild bundle (scripts/bundle.ts; `npm run build` in a clone).
// Plain JavaScript that any Node runs, so an old Node gets a clear message instead of a syntax error.
import module from 'node:module';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`acp: Node.js 20.19 or newer is needed; this is Node.js ${process.version}.\n`);
  process.exit(1);
}

// Node ≥ 22.1 keeps V8's compiled code between runs (about a quarter of the UI's start); Node 20
// has no such cache for ES modules, and this does nothing there.
module.enableCompileCache?.();

// Optimise only what runs 8x as long as V8's default asks (its "interrupt budget"). The UI runs a
// little code per frame for a long time: with the default, V8's optimising compiler took each
// function as it got warm (~5 compilations a second all through a streamed answer), costing more
// CPU than the optimised code saved. Set before the bundle loads, so that all of it is counted
// this way; hot loops (a flood, a long answer) still reach the budget quickly.
v8.setFlagsFromString('--interrupt-budget=540672');

const entry = import.meta.resolve('../dist/cli.js');
try {
  await import(entry);
} catch (error) {
  const path = fileURLToPath(entry);
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(path)) throw error;
  process.stderr.write(`acp: ${path} is missing; in a clone of acp-kit, run \`npm run build\`.\n`);
  process.exitCode = 1;
}

/**
 * The process entry of `acp` (run by bin/acp.cjs; `acp --version` and `--help` run quick.ts instead,
 * and starts without a command word first run start.ts, which comes here for what is not the UI).
 */
import { processIo } from './io.js';
import { main } from './main.js';

/** Commands whose stdout is a protocol channel: they handle its end themselves. */
const STDIO_PEERS = new Set(['agent', 'chain', 'proxy']);

// No top-level `await`: the bundle's chunks are CommonJS files (scripts/commonjs-chunks.ts).
void main(process.argv, processIo({ exitOnBrokenPipe: !STDIO_PEERS.has(process.argv[2] ?? '') })).then(
  (code) => {
    process.exitCode = code;
  },
);

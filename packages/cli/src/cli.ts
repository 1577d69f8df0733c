/**
 * The process entry of `acp` (run by bin/acp.cjs; `acp --version` and `--help` run quick.ts instead).
 */
import { processIo } from './io.js';
import { main } from './main.js';

process.exitCode = await main(process.argv, processIo({ exitOnBrokenPipe: process.argv[2] !== 'agent' }));

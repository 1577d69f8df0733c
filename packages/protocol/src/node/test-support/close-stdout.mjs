/* global setInterval */
// Says 'ready', then closes its stdout (fd 1) and keeps running: it ignores the end of its stdin
// and, with argv[2] = 'ignore-term', SIGTERM too (only SIGKILL stops it).
import { closeSync } from 'node:fs';

process.stdout.write(
  JSON.stringify({ jsonrpc: '2.0', method: 'ready', params: { pid: process.pid } }) + '\n',
  () => {
    process.stdout.destroy();
    try {
      closeSync(1);
    } catch {
      // Already closed by destroy().
    }
  },
);
process.stdin.on('data', () => undefined);
process.stdin.on('end', () => undefined);
if (process.argv[2] === 'ignore-term') process.on('SIGTERM', () => undefined);
setInterval(() => undefined, 1000);

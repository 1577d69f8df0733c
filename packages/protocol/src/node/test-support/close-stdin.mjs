/* global setInterval */
// Closes its stdin (so writes to it fail with EPIPE), says so on stdout, and exits with code 4
// on SIGUSR2.
import { closeSync } from 'node:fs';

process.stdin.destroy();
try {
  closeSync(0);
} catch {
  // Already closed by destroy().
}
process.on('SIGUSR2', () => {
  process.stderr.write('bye\n');
  process.exit(4);
});
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'stdin-closed', params: {} }) + '\n');
setInterval(() => undefined, 1000);

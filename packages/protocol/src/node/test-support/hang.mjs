/* global setInterval */
// Reads and ignores everything; never exits by itself. Announces itself on stdout once running.
process.stdin.on('data', () => undefined);
process.stdout.write(
  JSON.stringify({ jsonrpc: '2.0', method: 'ready', params: { pid: process.pid } }) + '\n',
);
setInterval(() => undefined, 1000);

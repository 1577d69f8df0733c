/* global setInterval */
// Logs on stderr when its stdin closes and when SIGTERM arrives. argv[2]:
//   'exit-on-term' (default): exits 0 on SIGTERM;  'ignore-term': survives SIGTERM (needs SIGKILL).
const mode = process.argv[2] ?? 'exit-on-term';
process.stdin.on('data', () => undefined);
process.stdin.on('end', () => process.stderr.write('stdin closed\n'));
process.on('SIGTERM', () => {
  process.stderr.write('got SIGTERM\n');
  if (mode === 'exit-on-term') process.exit(0);
});
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'ready', params: {} }) + '\n');
setInterval(() => undefined, 1000);

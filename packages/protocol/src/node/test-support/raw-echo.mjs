/* global setInterval, clearInterval */
// A minimal NDJSON peer with no acp-kit code: answers every request with its params, counts
// notifications (`count` request), and starts with stdin paused when argv[2] is 'paused'
// (SIGUSR2 resumes reading). Writes a 'ready' notification first.
import { createInterface } from 'node:readline';

let notifications = 0;
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) {
    notifications++;
    return;
  }
  if (message.method === 'count') send({ jsonrpc: '2.0', id: message.id, result: notifications });
  else if (message.method === 'exit') process.exit(message.params?.code ?? 0);
  else send({ jsonrpc: '2.0', id: message.id, result: message.params ?? null });
});
// A paused stdin does not keep the process alive: this does, until stdin ends.
const keepAlive = setInterval(() => undefined, 1000);
lines.on('close', () => clearInterval(keepAlive));
if (process.argv[2] === 'paused') {
  lines.pause();
  process.stdin.pause();
  process.on('SIGUSR2', () => {
    process.stdin.resume();
    lines.resume();
  });
}
send({ jsonrpc: '2.0', method: 'ready', params: { pid: process.pid } });

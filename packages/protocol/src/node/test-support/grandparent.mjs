/* global setInterval */
// Starts a long-lived grandchild in its own process group, reports the grandchild's pid, then:
//   argv[2] = 'stay'       : ignores stdin end and SIGTERM... until killed (the group gets SIGTERM/SIGKILL)
//   argv[2] = 'leave'      : exits as soon as its stdin ends, leaving the grandchild behind
// argv[3] = 'inherit' makes the grandchild hold our stdout open.
import { spawn } from 'node:child_process';

const mode = process.argv[2] ?? 'stay';
const stdio = process.argv[3] === 'inherit' ? ['ignore', 'inherit', 'ignore'] : 'ignore';
const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio });
process.stdout.write(
  JSON.stringify({ jsonrpc: '2.0', method: 'grandchild', params: { pid: grandchild.pid } }) + '\n',
);
process.stdin.on('data', () => undefined);
if (mode === 'leave') process.stdin.on('end', () => process.exit(0));
else process.on('SIGTERM', () => undefined);
setInterval(() => undefined, 1000);

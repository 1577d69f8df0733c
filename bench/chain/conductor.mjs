// The conductor as a process of its own, as `acp chain` runs it: `node conductor.mjs N` serves
// N pass-through proxies in front of the bench agent on stdin/stdout.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stdioChannel } from '../../packages/protocol/dist/node/index.js';
import { startChain } from '../../packages/protocol/dist/node/chain.js';

const here = dirname(fileURLToPath(import.meta.url));
const proxies = Number(process.argv[2] ?? '1');
const node = (file) => ({ command: process.execPath, args: [join(here, file)] });
const chain = startChain(stdioChannel(), [
  ...Array.from({ length: proxies }, () => node('proxy.mjs')),
  node('agent.mjs'),
]);
await chain.done;

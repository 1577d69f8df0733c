/** Raw baseline client, batched floor: the raw agent gathers a streamed answer into 64 KiB writes. */
import { URL, fileURLToPath } from 'node:url';
import { runClient } from '../harness.js';
import { rawOpen } from './raw-connect.js';

await runClient('raw-batched', rawOpen('batch'), fileURLToPath(new URL('./raw-agent.js', import.meta.url)));

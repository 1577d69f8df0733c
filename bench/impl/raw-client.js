/** Raw baseline client, per-line floor: the raw agent writes one frame per `write`. */
import { URL, fileURLToPath } from 'node:url';
import { runClient } from '../harness.js';
import { rawOpen } from './raw-connect.js';

await runClient('raw', rawOpen('await'), fileURLToPath(new URL('./raw-agent.js', import.meta.url)));

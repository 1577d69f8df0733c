/** acp-kit client (built @acp-kit/protocol): spawns the acp-kit agent with spawnPeer. */
import { URL, fileURLToPath } from 'node:url';
import { runClient } from '../harness.js';
import { acpKitOpener } from './acp-kit-open.js';

await runClient(
  'acp-kit',
  acpKitOpener('mode'),
  fileURLToPath(new URL('./acp-kit-agent.js', import.meta.url)),
);

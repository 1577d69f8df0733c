/**
 * acp-kit v1 client whose round trip is `session/set_config_option` (answered with the option
 * list): the same request and answer as the v2 round trip, so v2 is compared like for like.
 */
import { URL, fileURLToPath } from 'node:url';
import { runClient } from '../harness.js';
import { acpKitOpener } from './acp-kit-open.js';

await runClient(
  'acp-kit-config',
  acpKitOpener('config'),
  fileURLToPath(new URL('./acp-kit-agent.js', import.meta.url)),
);

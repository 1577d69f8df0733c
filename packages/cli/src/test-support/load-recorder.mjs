// Records the URL of every module the process loads into the file named by ACP_LOAD_LOG (tests of
// what `acp` loads at startup). Loaded with `node --import=<this file>`.
import { register } from 'node:module';

register('./load-hooks.mjs', import.meta.url);

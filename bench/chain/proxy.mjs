// A pass-through proxy for the chain bench: runProxy with no interceptors (every message forwarded).
import { stdioChannel } from '../../packages/protocol/dist/node/index.js';
import { runProxy } from '../../packages/protocol/dist/unstable.js';

await runProxy(stdioChannel(), {}).closed;

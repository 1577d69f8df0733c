// A proxy of the chain tests, written with runProxy; run with `node --conditions=@acp-kit/source
// --import tsx tag-proxy.ts NAME [--die-mid-turn]`. It tags prompts and the agent's name with
// NAME; with --die-mid-turn it exits at the first update of a turn.
import { runProxy } from '../../proxy/proxy.js';
import { stdioChannel } from '../stdio-channel.js';

const name = process.argv[2] ?? 'proxy';
const dieMidTurn = process.argv.includes('--die-mid-turn');

const proxy = runProxy(stdioChannel(), {
  fromClient: async (message, forward) => {
    if (message.method === 'initialize') {
      const answer = (await forward()) as { agentInfo?: { name: string } };
      if (answer.agentInfo) answer.agentInfo.name += `+${name}`;
      return answer;
    }
    if (message.method === 'session/prompt') {
      const params = message.params as { prompt: unknown[] };
      return forward({
        method: message.method,
        params: { ...params, prompt: [...params.prompt, { type: 'text', text: `[${name}]` }] },
      });
    }
    return forward();
  },
  fromAgent: (message, forward) => {
    if (dieMidTurn && message.method === 'session/update') process.exit(5);
    return forward();
  },
});
await proxy.closed;

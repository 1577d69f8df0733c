// The final agent of the chain tests; run with `node --conditions=@acp-kit/source --import tsx`.
// A prompt says what to do: `ask` asks permission, `wait` runs until cancelled, `die` exits mid-turn.
import { JsonRpcConnection } from '../../jsonrpc/connection.js';
import { stdioChannel } from '../stdio-channel.js';

interface Block {
  type: string;
  text?: string;
}

const connection = new JsonRpcConnection(stdioChannel(), { peerName: 'client' });
let cancel = new AbortController();
const say = (sessionId: string, text: string) =>
  connection.notify('session/update', {
    sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
  });

connection.onRequest('initialize', (params) => ({
  protocolVersion: (params as { protocolVersion: number }).protocolVersion,
  agentCapabilities: {},
  agentInfo: { name: 'chain-agent', version: '1.0.0' },
}));
connection.onRequest('session/new', () => ({ sessionId: 's1' }));
connection.onNotification('session/cancel', () => cancel.abort());
connection.onRequest('session/prompt', async (params, ctx) => {
  const { sessionId, prompt } = params as { sessionId: string; prompt: Block[] };
  const text = prompt.map((block) => block.text ?? `[${block.type}]`).join(' ');
  cancel = new AbortController();
  await say(sessionId, `got: ${text}`);
  if (text.includes('die')) process.exit(3);
  if (text.includes('ask')) {
    const answer = await connection.request('session/request_permission', {
      sessionId,
      toolCall: { toolCallId: 't1' },
      options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }],
    });
    await say(sessionId, `permission: ${JSON.stringify(answer)}`);
  }
  if (text.includes('wait')) {
    await new Promise<void>((resolve) => {
      cancel.signal.addEventListener('abort', () => resolve());
      ctx.signal.addEventListener('abort', () => resolve());
      if (cancel.signal.aborted) resolve();
    });
    await say(sessionId, ctx.signal.aborted ? 'request cancelled' : 'session cancelled');
    return { stopReason: 'cancelled' };
  }
  return { stopReason: 'end_turn' };
});
connection.start();
await connection.closed;

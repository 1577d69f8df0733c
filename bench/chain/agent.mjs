// The final agent of the chain bench: `echo` answers its params, `stream` sends `count`
// notifications of `size` characters and then answers. Built on the protocol package's dist.
import { JsonRpcConnection } from '../../packages/protocol/dist/index.js';
import { stdioChannel } from '../../packages/protocol/dist/node/index.js';

const connection = new JsonRpcConnection(stdioChannel(), { peerName: 'client' });
connection.onRequest('echo', (params) => params);
connection.onRequest('stream', async ({ count, size }) => {
  const text = 'x'.repeat(size);
  for (let i = 0; i < count; i++)
    await connection.notify('session/update', {
      sessionId: 's',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
    });
  return { sent: count };
});
connection.start();
await connection.closed;

// An agent built on acp-kit's own stdioChannel; run with `node --import tsx`.
import { JsonRpcConnection } from '../../jsonrpc/connection.ts';
import { stdioChannel } from '../stdio-channel.ts';

const connection = new JsonRpcConnection(stdioChannel(), { peerName: 'client' });
connection.onRequest('echo', (params) => params);
connection.onRequest('stream', async (params) => {
  const { count } = params;
  for (let i = 0; i < count; i++) await connection.notify('session/update', { i, text: 'x'.repeat(100) });
  return { sent: count };
});
connection.start();
const reason = await connection.closed;
process.stderr.write(`closed: ${reason.code}\n`);
process.exitCode = 0;

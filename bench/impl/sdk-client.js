/** Official SDK client (@agentclientprotocol/sdk app API): spawns the SDK agent over a pipe. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { URL, fileURLToPath } from 'node:url';
import { client, methods, ndJsonStream } from '@agentclientprotocol/sdk';
import { CLIENT_INFO, CWD, MODE_ID, SESSION_ID, promptParams } from '../common.js';
import { runClient } from '../harness.js';

async function open({ agentScript, onUpdate }) {
  // Started like the others (see raw-connect.js): in a session of its own.
  const child = spawn(process.execPath, [...process.execArgv, agentScript], {
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  const exited = once(child, 'exit');
  const app = client({ name: 'bench-client' })
    .onNotification(methods.client.session.update, ({ params }) => {
      onUpdate(params);
    })
    .onRequest(methods.client.session.requestPermission, () => ({ outcome: { outcome: 'cancelled' } }));
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  const ctx = connection.agent;
  return {
    pid: child.pid,
    initialize: () =>
      ctx.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: {},
        clientInfo: CLIENT_INFO,
      }),
    newSession: () => ctx.request(methods.agent.session.new, { cwd: CWD, mcpServers: [] }),
    prompt: async (n) => (await ctx.request(methods.agent.session.prompt, promptParams(n))).stopReason,
    setMode: () => ctx.request(methods.agent.session.setMode, { sessionId: SESSION_ID, modeId: MODE_ID }),
    close: async () => {
      connection.close();
      child.stdin.end();
      await exited;
    },
  };
}

await runClient('sdk', open, fileURLToPath(new URL('./sdk-agent.js', import.meta.url)));

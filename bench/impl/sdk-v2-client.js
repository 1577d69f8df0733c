/** Official SDK client (@agentclientprotocol/sdk experimental v2 API): spawns the SDK v2 agent. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { URL, fileURLToPath } from 'node:url';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { client } from '@agentclientprotocol/sdk/experimental/v2';
import { CLIENT_INFO, CWD, promptParams } from '../common.js';
import { runClient } from '../harness.js';
import { SET_MODE, V2Turns } from './v2-common.js';

async function open({ agentScript, onUpdate }) {
  const child = spawn(process.execPath, [...process.execArgv, agentScript], {
    stdio: ['pipe', 'pipe', 'inherit'],
    // Started like the others (see raw-connect.js): in a session of its own.
    detached: true,
  });
  const exited = once(child, 'exit');
  const turns = new V2Turns(onUpdate);
  const app = client({ name: 'bench-client' })
    .onNotification('session/update', ({ params }) => turns.update(params))
    .onRequest('session/request_permission', () => ({ outcome: { outcome: 'cancelled' } }));
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  const ctx = connection.agent;
  return {
    pid: child.pid,
    initialize: () => ctx.request('initialize', { protocolVersion: 2, capabilities: {}, info: CLIENT_INFO }),
    newSession: () => ctx.request('session/new', { cwd: CWD }),
    prompt: (n) => turns.prompt(() => ctx.request('session/prompt', promptParams(n))),
    setMode: () => ctx.request('session/set_config_option', SET_MODE),
    close: async () => {
      connection.close();
      child.stdin.end();
      await exited;
    },
  };
}

await runClient('sdk-v2', open, fileURLToPath(new URL('./sdk-v2-agent.js', import.meta.url)));

/** The raw baseline client's connection: spawns the raw agent and talks to it with hand-built frames. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { CLIENT_INFO, CWD, MODE_ID, SESSION_ID, promptParams } from '../common.js';
import { readLines, writeFrame } from './raw-framing.js';

/** An `open` for `runClient` that starts the raw agent with `writes` (see raw-agent.js). */
export function rawOpen(writes) {
  return async function open({ agentScript, onUpdate }) {
    // In a session of its own, as spawnPeer starts agents (so that their process group can be
    // signalled as one): the floor differs from acp-kit only in what runs in both processes.
    const child = spawn(process.execPath, [...process.execArgv, agentScript, writes], {
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    });
    const exited = once(child, 'exit');
    const pending = new Map();
    let nextId = 1;
    readLines(child.stdout, (msg) => {
      if (msg.method === 'session/update') {
        onUpdate(msg.params);
      } else if (msg.id !== undefined && msg.method === undefined) {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) p.reject(new Error(msg.error.message));
        else p.resolve(msg.result);
      }
    });
    const request = (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        writeFrame(child.stdin, { jsonrpc: '2.0', id, method, params });
      });
    return {
      pid: child.pid,
      initialize: () =>
        request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: CLIENT_INFO }),
      newSession: () => request('session/new', { cwd: CWD, mcpServers: [] }),
      prompt: async (n) => (await request('session/prompt', promptParams(n))).stopReason,
      setMode: () => request('session/set_mode', { sessionId: SESSION_ID, modeId: MODE_ID }),
      close: async () => {
        child.stdin.end();
        await exited;
      },
    };
  };
}

/**
 * An agent started before its connection (the terminal UI starts it while it loads): the first
 * connection to the same launch takes that very process, with what it wrote on stderr meanwhile;
 * any other connection starts its own and the early one is stopped.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpClient } from '../client.js';
import { fakeAgent, tempDir, waitGone } from '../test-support/harness.js';
import { startEarlyAgent, type EarlyAgent } from './early-agent.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function home(): Promise<string> {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  return dir;
}

function envOf(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, ACP_KIT_CONFIG_DIR: join(dir, 'config'), ACP_KIT_DATA_DIR: join(dir, 'data') };
}

async function client(dir: string): Promise<AcpClient> {
  const created = await AcpClient.create({ env: envOf(dir), mode: 'all' });
  cleanups.push(() => created.kill());
  return created;
}

/** The agent's pid, once it has started (it writes it first thing). */
async function agentPid(file: string): Promise<number> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text !== '') return (JSON.parse(text) as { agent: number }).agent;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function early(...args: Parameters<typeof startEarlyAgent>): Promise<EarlyAgent> {
  const started = await startEarlyAgent(...args);
  cleanups.push(() => started.discard());
  return started;
}

describe('an agent started early', () => {
  it('is the process of the first connection to the same agent and directory', async () => {
    const dir = await home();
    const acp = await client(dir);
    const agent = fakeAgent({ pidFile: join(dir, 'pids.json') });
    const started = await early({ spec: agent, cwd: dir, env: envOf(dir), passEnv: acp.passEnv });
    const pid = await agentPid(join(dir, 'pids.json'));
    const connection = await acp.connect(agent, { cwd: dir, early: started });
    expect(connection.pid).toBe(pid);
    const session = await connection.newSession({ cwd: dir });
    expect(session.state.agentSessionId).toBeTruthy();
    // Taken once: a restart starts a new process.
    expect(started.adopt()).toBeUndefined();
  });

  it('hands over what the agent wrote on stderr before it was taken, then the rest', async () => {
    const dir = await home();
    const started = await early({
      spec: fakeAgent({ startupStderr: 'warming up\n', pidFile: join(dir, 'pids.json') }),
      cwd: dir,
    });
    await agentPid(join(dir, 'pids.json'));
    const seen: string[] = [];
    let wrote: () => void = () => undefined;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const process = started.adopt((text) => {
      seen.push(text);
      if (seen.join('').includes('warming up')) wrote();
    });
    await written;
    expect(seen.join('')).toBe('warming up\n');
    await process?.shutdown();
  });

  it('is stopped, and another started, when the connection is for another directory', async () => {
    const dir = await home();
    const other = await home();
    const acp = await client(dir);
    const agent = fakeAgent({ pidFile: join(dir, 'pids.json') });
    const started = await early({ spec: agent, cwd: dir, env: envOf(dir), passEnv: acp.passEnv });
    const pid = await agentPid(join(dir, 'pids.json'));
    const connection = await acp.connect(agent, { cwd: other, early: started });
    expect(connection.pid).not.toBe(pid);
    expect(await waitGone(pid)).toBe(true);
  });

  it('is stopped when nobody takes it', async () => {
    const dir = await home();
    const started = await early({ spec: fakeAgent({ pidFile: join(dir, 'pids.json') }), cwd: dir });
    const pid = await agentPid(join(dir, 'pids.json'));
    await started.discard();
    expect(await waitGone(pid)).toBe(true);
    expect(started.adopt()).toBeUndefined();
  });
});

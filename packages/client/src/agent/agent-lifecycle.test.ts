/**
 * Stopping agents at any point: while they start, while a close is under way (hurried by kill),
 * and after their connection is lost. The agents here ignore the end of stdin and SIGTERM and
 * start a grandchild: only the process-group kill at the end of the sequence stops them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpClient } from '../client.js';
import { ClientError } from '../errors.js';
import { fakeAgent, processGone, script, startFake, tempDir, waitGone } from '../test-support/harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function home() {
  const { dir, cleanup } = await tempDir();
  cleanups.push(cleanup);
  return dir;
}

/** The agent's and its grandchild's pids, once the agent wrote them. */
async function pids(file: string): Promise<{ agent: number; grandchild: number }> {
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text !== '') return JSON.parse(text) as { agent: number; grandchild: number };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function client(dir: string): Promise<AcpClient> {
  const created = await AcpClient.create({
    env: { ...process.env, ACP_KIT_CONFIG_DIR: join(dir, 'config'), ACP_KIT_DATA_DIR: join(dir, 'data') },
    mode: 'all',
  });
  cleanups.push(() => created.kill());
  return created;
}

describe('stopping an agent', () => {
  it('client.close() while the agent is still starting stops it and its grandchild', async () => {
    const dir = await home();
    const pidFile = join(dir, 'pids.json');
    const acp = await client(dir);
    const starting = acp.connect(fakeAgent({ hangInit: true, stubborn: true, pidFile }), { cwd: dir });
    const { agent, grandchild } = await pids(pidFile);
    await acp.close(100);
    const error = (await starting.catch((e: unknown) => e)) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.code).toBe('AGENT_START_FAILED');
    expect(error.message).toBe('fake agent fake was stopped while starting');
    expect(processGone(agent)).toBe(true);
    expect(await waitGone(grandchild)).toBe(true);
  });

  it('aborting the signal given to connect() stops an agent that is starting', async () => {
    const dir = await home();
    const pidFile = join(dir, 'pids.json');
    const acp = await client(dir);
    const abort = new AbortController();
    const starting = acp.connect(fakeAgent({ hangInit: true, stubborn: true, pidFile }), {
      cwd: dir,
      signal: abort.signal,
    });
    const { agent } = await pids(pidFile);
    abort.abort();
    await expect(starting).rejects.toMatchObject({ code: 'AGENT_START_FAILED', details: { stopped: true } });
    expect(processGone(agent)).toBe(true);
  });

  it('kill() hurries a close() that is waiting for a stubborn agent', async () => {
    const dir = await home();
    const pidFile = join(dir, 'pids.json');
    const { connection } = await startFake(dir, { stubborn: true, pidFile });
    const { agent, grandchild } = await pids(pidFile);
    const closing = connection.close(60_000);
    await connection.kill();
    await closing;
    expect(processGone(agent)).toBe(true);
    expect(await waitGone(grandchild)).toBe(true);
  });

  it('an agent that closes its stdout is stopped by itself, with its grandchild', async () => {
    const dir = await home();
    const pidFile = join(dir, 'pids.json');
    const { connection } = await startFake(dir, { stubborn: true, pidFile });
    cleanups.push(() => connection.kill());
    const { agent, grandchild } = await pids(pidFile);
    const session = await connection.newSession({ cwd: dir });
    const turn = session.prompt(script([{ closeStdout: true, hang: true }]));
    const error = (await turn.catch((e: unknown) => e)) as ClientError;
    expect(error.code).toBe('AGENT_EXITED');
    expect(error.message).toContain('closed its stdout but kept running');
    // Nobody closes the connection: the shutdown sequence runs to SIGKILL on its own.
    expect(await waitGone(agent, 10_000)).toBe(true);
    expect(await waitGone(grandchild, 10_000)).toBe(true);
  });
});

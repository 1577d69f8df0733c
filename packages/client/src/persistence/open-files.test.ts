/**
 * File handles of the records: a library user who closes the client without closing a session
 * whose agent crashed must not keep its transcript and trace open (until garbage collection).
 */
import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpClient } from '../client.js';
import { fakeAgent, script, tempDir } from '../test-support/harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Paths this process has open under `dir` (Linux: `/proc/self/fd`). */
async function openUnder(dir: string): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target.startsWith(dir));
}

describe.runIf(process.platform === 'linux')('open files', () => {
  it('closes the records of a crashed session that was never closed when the client closes', async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const data = join(dir, 'data');
    const client = await AcpClient.create({
      env: { PATH: process.env.PATH ?? '', ACP_KIT_CONFIG_DIR: join(dir, 'config'), ACP_KIT_DATA_DIR: data },
      mode: 'all',
    });
    const connection = await client.connect(fakeAgent(), { cwd: dir });
    const crashed = await connection.newSession({ cwd: dir });
    const closed = await connection.newSession({ cwd: dir });
    expect((await openUnder(data)).length).toBeGreaterThanOrEqual(4);
    await closed.close();
    const failure = await crashed.prompt(script([{ text: 'bye' }, { exit: 3 }])).catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe('AGENT_EXITED');
    await client.close();
    expect(await openUnder(data)).toEqual([]);
    // The record is complete: the crash is in it.
    const { events } = await client.transcripts.load(crashed.localId);
    expect(events.map((event) => event.type)).toContain('agent_exited');
  });
});

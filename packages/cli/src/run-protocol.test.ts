/**
 * `acp run` in each ACP version: the demo agent speaks both, so it is spoken to in v2 by default
 * and in the forced version with `--protocol`; the scripted fake agent speaks v1 only and is spoken
 * to in v1 unchanged. The version is read from the wire trace acp recorded.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCommand, runCli, testHome, type TestHome } from './test-support/cli-harness.js';

let home: TestHome;
beforeEach(async () => {
  home = await testHome();
  await writeFile(join(home.work, 'README.md'), '# A project\n\nhello there\n');
});
afterEach(() => home.cleanup());

/** The frames of the one session `acp run` recorded. */
async function recordedFrames(): Promise<{ dir: string; frame: Record<string, unknown> }[]> {
  const sessions = join(home.env.ACP_KIT_DATA_DIR as string, 'client', 'sessions');
  const [id] = await readdir(sessions);
  const text = await readFile(join(sessions, id as string, 'trace.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { dir: string; frame: Record<string, unknown> });
}

function answeredVersion(frames: { dir: string; frame: Record<string, unknown> }[]): unknown {
  const answer = frames.find((f) => f.dir === 'in' && f.frame.id === 1);
  return (answer?.frame.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
}

const updateKinds = (frames: { dir: string; frame: Record<string, unknown> }[]): Set<unknown> =>
  new Set(
    frames
      .filter((f) => f.frame.method === 'session/update')
      .map((f) => (f.frame.params as { update: { sessionUpdate: unknown } }).update.sessionUpdate),
  );

describe('acp run --protocol', () => {
  it('runs the demo tour in v2 by default: the turn ends at its idle state, same answer as v1', async () => {
    const v2 = await runCli(['run', '--agent', 'demo', '--approve', 'all', 'hello'], home);
    expect(v2.code).toBe(0);
    const frames = await recordedFrames();
    expect(answeredVersion(frames)).toBe(2);
    const kinds = updateKinds(frames);
    expect(kinds.has('state_update')).toBe(true);
    expect(kinds.has('tool_call_update')).toBe(true);
    expect(v2.stderr).toContain('done: Run `ls -la`');
    expect(v2.stdout).toContain('demo agent');
  }, 120_000);

  it('--protocol 1 speaks v1 to the same agent', async () => {
    const v1 = await runCli(['run', '--agent', 'demo', '--approve', 'all', '--protocol', '1', 'hello'], home);
    expect(v1.code).toBe(0);
    const frames = await recordedFrames();
    expect(answeredVersion(frames)).toBe(1);
    expect(updateKinds(frames).has('state_update')).toBe(false);
    expect(v1.stderr).toContain('done: Run `ls -la`');
  }, 120_000);

  it('a v1-only agent is spoken to in v1 unchanged; --protocol 2 makes it fail at the handshake', async () => {
    const plain = await runCli(['run', 'hello', '--', ...fakeCommand()], home);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('echo: hello [text]\n');
    const forced = await runCli(['run', '--protocol', '2', 'hello', '--', ...fakeCommand()], home);
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toMatch(
      /speaks ACP version 1, and this connection was limited to version 2 \(--protocol/,
    );
  }, 120_000);

  it('refuses a version it does not know', async () => {
    const bad = await runCli(['run', '--protocol', '3', 'hello', '--', ...fakeCommand()], home);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--protocol/);
  });
});

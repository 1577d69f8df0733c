/** startAgentProcess: a command that cannot run is reported for what it is, never as "not found" when it is there. */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientError } from '../errors.js';
import { tempDir } from '../test-support/harness.js';
import { startAgentProcess } from './agent-process.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function startError(command: string, env: NodeJS.ProcessEnv): Promise<ClientError> {
  const error = await startAgentProcess({ command, args: [] }, { env, cwd: dir }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClientError);
  return error as ClientError;
}

describe('startAgentProcess', () => {
  it('reports a file without the execute permission as not executable, with its path', async () => {
    const agent = join(dir, 'my-agent');
    await writeFile(agent, '#!/bin/sh\nexit 0\n');
    await chmod(agent, 0o644);
    for (const error of [await startError('my-agent', { PATH: dir }), await startError(agent, {})]) {
      expect(error.code).toBe('AGENT_START_FAILED');
      expect(error.message).toContain(`${agent} is not executable (permission denied)`);
      expect(error.message).not.toContain('not found');
      expect(error.details).toMatchObject({ path: agent, reason: 'not-executable' });
    }
  });

  it('reports a missing command as not found', async () => {
    const onPath = await startError('no-such-agent', { PATH: dir });
    expect(onPath.code).toBe('AGENT_NOT_INSTALLED');
    expect(onPath.message).toBe('no-such-agent was not found on PATH');
    const byPath = await startError(join(dir, 'missing'), {});
    expect(byPath.message).toBe(`${join(dir, 'missing')} was not found`);
  });
});

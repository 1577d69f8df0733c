/** The example client and agent run end to end, as the README's first command runs them. */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const tsxCli = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'cli.mjs');
const client = join(here, '..', 'examples', 'echo-client.ts');

function runExample(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsxCli, '--conditions=@acp-kit/source', client, ...args],
      { timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('examples', () => {
  it('runs a full turn with a permission granted and a file written through the client', async () => {
    const { code, stdout } = await runExample(['--allow', 'Hello, agent']);
    expect(code).toBe(0);
    expect(stdout).toContain('connected to acp-kit-echo-example');
    expect(stdout).toContain('plan: [completed] Read the prompt, [in_progress] Echo it back');
    expect(stdout).toContain('Hello, agent');
    expect(stdout).toContain('permission: Allow');
    expect(stdout).toContain('tool write-echo: completed');
    expect(stdout).toContain('stop reason: end_turn');
    expect(stdout).toMatch(/agent wrote .*echo\.txt: Hello, agent/);
  });

  it('a rejected permission means nothing is written', async () => {
    const { code, stdout } = await runExample(['Do not write']);
    expect(code).toBe(0);
    expect(stdout).toContain('permission: Reject');
    expect(stdout).toContain('tool write-echo: failed');
    expect(stdout).not.toContain('agent wrote');
  });
});

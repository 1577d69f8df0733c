/**
 * The `acp` program run in the test's own process, without a terminal: what the bundle's
 * CommonJS starts (quick.test.ts, start.test.ts) are compared with.
 */
import type { CliIo } from '../packages/cli/src/io.ts';
import { main } from '../packages/cli/src/main.ts';

/** `acp ARGS` in this process: its exit code and what it wrote. */
export async function inProcessProgram(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    readStdin: async () => '',
    env,
    cwd: '/',
    self: { command: process.execPath, args: ['acp'] },
    onSignal: () => () => undefined,
  };
  const code = await main(['node', 'acp', ...args], io);
  return { code, out, err };
}

/**
 * Carrying out a `run-terminal` auth method: the command runs in the foreground with the user's
 * terminal (the UI hands it over first), and a zero exit status means success. The caller then
 * reconnects (restarts the agent) so it picks up the new credentials.
 */
import { spawn } from 'node:child_process';
import { ClientError } from '../errors.js';
import type { AuthOption } from './auth-methods.js';

/** How a terminal auth run ended. */
export interface TerminalAuthResult {
  ok: boolean;
  exitCode: number | null;
  signal: string | null;
}

/**
 * Runs the option's command interactively (stdio inherited, same process group so it can read
 * the terminal).
 *
 * @example
 * const { ok } = await runTerminalAuth(option, { cwd: process.cwd() });
 * if (ok) await connection.restart();
 */
export function runTerminalAuth(
  option: AuthOption,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<TerminalAuthResult> {
  const run = option.run;
  if (option.action !== 'run-terminal' || !run) {
    return Promise.reject(
      new ClientError('INVALID_ARGUMENT', `auth method ${option.id} is not run in a terminal`),
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(run.command, run.args, {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...run.env },
      stdio: 'inherit',
      shell: false,
    });
    child.once('error', (error) => {
      reject(new ClientError('AGENT_START_FAILED', `cannot run ${run.command}: ${error.message}`, {}, error));
    });
    child.once('exit', (exitCode, signal) => resolve({ ok: exitCode === 0, exitCode, signal }));
  });
}

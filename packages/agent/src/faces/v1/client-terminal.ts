/**
 * Runs a command in a terminal a v1 client owns (`terminal/create`): the client shows it live, the
 * tool call embeds it, and we always kill it on cancel and release it when done.
 */
import type { AgentSideConnection, TerminalHandle } from '@acp-kit/protocol';
import type { ClientTerminalRun } from '../../core/client-port.js';
import { shellInvocation, type CommandOutcome } from '../../tools/command/shell.js';
import { AbortedError } from '../../util/abort.js';

export async function runInClientTerminal(
  connection: AgentSideConnection,
  options: ClientTerminalRun,
): Promise<CommandOutcome> {
  const { command, args } = shellInvocation(options.commandLine);
  // Not aborted by the signal: a terminal the client creates after we gave up waiting would never
  // be released. Creation is quick; a cancel that lands meanwhile is handled just below.
  const terminal: TerminalHandle = await connection.createTerminal({
    sessionId: options.sessionId,
    command,
    args,
    cwd: options.cwd,
    outputByteLimit: options.outputByteLimit,
  });
  let timedOut = false;
  try {
    if (options.signal.aborted) throw new AbortedError();
    await options.onCreated(terminal.id);
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const waitSignal = AbortSignal.any([options.signal, timeout]);
    let exit: { exitCode?: number | null; signal?: string | null } | undefined;
    try {
      exit = await terminal.waitForExit({ signal: waitSignal });
    } catch (error) {
      if (!waitSignal.aborted) throw error;
      // Cancelled or timed out: stop the command, keep the terminal for its output.
      await terminal.kill().catch(() => undefined);
      if (options.signal.aborted) throw new AbortedError();
      timedOut = true;
    }
    const output = await terminal.output();
    return {
      exitCode: exit?.exitCode ?? output.exitStatus?.exitCode ?? null,
      signal: exit?.signal ?? output.exitStatus?.signal ?? null,
      output: output.output,
      truncated: output.truncated,
      timedOut,
    };
  } finally {
    // Release in every case; the client frees the terminal (and kills it if still running).
    await terminal.release().catch(() => undefined);
  }
}

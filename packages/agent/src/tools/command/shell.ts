/** How a command line is run: through the platform's shell, like a user typing it. */

export interface ShellInvocation {
  command: string;
  args: string[];
}

/** `/bin/sh -c <line>` (or `cmd.exe /d /s /c <line>` on Windows). */
export function shellInvocation(commandLine: string): ShellInvocation {
  if (process.platform === 'win32') {
    return { command: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', commandLine] };
  }
  return { command: '/bin/sh', args: ['-c', commandLine] };
}

/** The program a command line starts (`npm` for `npm test && …`), for remembering permissions. */
export function programOf(commandLine: string): string {
  const words = commandLine.trim().split(/\s+/);
  // Skip leading `VAR=value` assignments: `CI=1 npm test` runs npm.
  const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? words[0] ?? '';
  return (
    program
      .replace(/^["']|["']$/g, '')
      .split(/[\\/]/)
      .pop() ?? program
  );
}

/** What a finished command reports. */
export interface CommandOutcome {
  exitCode: number | null;
  signal: string | null;
  /** The end of the combined stdout/stderr, at most the byte limit. */
  output: string;
  truncated: boolean;
  timedOut: boolean;
}

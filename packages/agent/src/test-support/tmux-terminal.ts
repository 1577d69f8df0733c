/**
 * A command in a real terminal: tmux on a private socket, polled with `capture-pane` (bounded,
 * never fixed sleeps). For what needs a TTY, such as `acp agent setup`'s prompts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let counter = 0;

/** The exit status of a process that exited but was not reaped yet (128 + signal when killed). */
function zombieStatus(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] !== 'Z') return undefined;
  const waitStatus = Number(fields[49]);
  const signal = waitStatus & 0x7f;
  return signal === 0 ? (waitStatus >> 8) & 0xff : 128 + signal;
}

/** Quotes a word for `sh`. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export class TmuxTerminal {
  private readonly socket = `acp-agent-test-${process.pid}-${++counter}`;

  /** Starts `command args` with exactly `env` in `cwd`, in an 100×30 terminal. */
  constructor(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    const env = Object.entries(options.env).map(([k, v]) => `${k}=${v ?? ''}`);
    const line = `cd ${shellQuote(options.cwd)} && exec env -i ${[...env, command, ...args].map(shellQuote).join(' ')}`;
    execFileSync('tmux', [
      '-L',
      this.socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      '100',
      '-y',
      '30',
      line,
    ]);
    this.tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Screen and scrollback. */
  text(): string {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', 'main');
  }

  /**
   * Polls until `match` is on the screen or in the scrollback; throws with the screen after
   * `timeoutMs` (generous: the command may start from source through tsx on a loaded machine).
   */
  async waitFor(match: string | RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.text();
      if (typeof match === 'string' ? text.includes(match) : match.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(match)}\n${text}`);
      await new Promise((done) => setTimeout(done, 40));
    }
  }

  /** Types `text` and presses Enter. */
  typeLine(text: string): void {
    if (text !== '') this.tmux('send-keys', '-t', 'main', '-l', text);
    this.tmux('send-keys', '-t', 'main', 'Enter');
  }

  /** Waits for the command to exit; its exit status. */
  async exitStatus(timeoutMs = 60_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [dead, status, pid] = this.tmux(
        'display-message',
        '-p',
        '-t',
        'main',
        '#{pane_dead} #{pane_dead_status} #{pane_pid}',
      )
        .trim()
        .split(' ');
      if (dead === '1') {
        if (status !== undefined && status !== '' && pid !== undefined) return Number(status);
        // tmux 3.3 shows the pane dead (its terminal closed) before it reaps the process; the
        // zombie's wait status is in /proc meanwhile (as in the terminal UI's tmux harness).
        const zombie = zombieStatus(Number(pid ?? status));
        if (zombie !== undefined) return zombie;
      }
      if (Date.now() > deadline) throw new Error(`the command did not exit\n${this.text()}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  close(): void {
    try {
      execFileSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
  }
}

/**
 * A terminal for startup timings: one tmux pane on a private server, driven through a tmux control
 * client (`tmux -C`). Starting a program in it and seeing what it drew are timed from outside, the
 * way a person sees it: from asking tmux to start the program (`respawn-pane`) to the moment
 * `capture-pane` shows the expected text. The control client reports every write the pane gets
 * (`%output`), and the pane is captured after each one, so the time is the write that completed
 * the screen, not a polling interval; and no tmux client process is started per look.
 */
import { execFileSync, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
/** What the pane runs between measurements: nothing that draws. */
const IDLE = 'exec cat';

export class TmuxPane {
  /** `dir`: where the tmux configuration is written. */
  constructor({ dir, columns = 120, rows = 40 }) {
    this.dir = dir;
    this.columns = columns;
    this.rows = rows;
    this.servers = 0;
    this.start();
  }

  /** A tmux server with one pane, and a control client attached to it, sized `columns` × `rows`. */
  start() {
    this.socket = `acp-startup-bench-${process.pid}-${++this.servers}`;
    const conf = `${this.dir}/tmux.conf`;
    writeFileSync(
      conf,
      // The pane stays after its program exits, so a program that draws and exits (the floor) is
      // captured like one that stays.
      'set -g remain-on-exit on\nset -g status off\nset -g history-limit 2000\n',
    );
    execFileSync('tmux', [
      '-L',
      this.socket,
      '-f',
      conf,
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(this.columns),
      '-y',
      String(this.rows),
      IDLE,
    ]);
    // Removed by close(): a server ended from outside leaves its socket file behind.
    this.socketPath = execFileSync('tmux', ['-L', this.socket, 'display-message', '-p', '#{socket_path}'], {
      encoding: 'utf8',
    }).trim();
    const client = spawn('tmux', ['-L', this.socket, '-C', 'attach', '-t', 'main'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.client = client;
    this.replies = [];
    this.block = undefined;
    this.onOutput = () => {};
    let pending = '';
    client.stdout.setEncoding('utf8');
    client.stdout.on('data', (data) => {
      pending += data;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        this.line(pending.slice(0, end));
        pending = pending.slice(end + 1);
      }
    });
    this.closed = new Promise((resolve) =>
      client.on('exit', () => {
        // A server that went away answers nothing more: what waits for it fails.
        for (const reply of this.replies.splice(0)) reply(undefined);
        resolve();
      }),
    );
    // The window takes the control client's size (the only client).
    void this.command(`refresh-client -C ${this.columns}x${this.rows}`);
  }

  /** One line of the control protocol: replies come in %begin … %end blocks; %output notes a write. */
  line(text) {
    if (this.block) {
      if (/^%(end|error) /.test(text)) {
        const block = this.block;
        this.block = undefined;
        // Flag 1: the reply to a command of this client (the attach itself answers with flag 0).
        if (block.ours) this.replies.shift()?.(block.lines.join('\n'));
      } else this.block.lines.push(text);
    } else if (text.startsWith('%begin ')) this.block = { ours: text.endsWith(' 1'), lines: [] };
    else if (text.startsWith('%output ')) this.onOutput();
  }

  /** Runs a tmux command through the control client; resolves with its output, rejects when tmux is gone. */
  command(text) {
    return new Promise((resolve, reject) => {
      if (this.client.exitCode !== null || this.client.signalCode !== null)
        return reject(new Error(`tmux (${this.socket}) is gone`));
      this.replies.push((output) =>
        output === undefined ? reject(new Error(`tmux (${this.socket}) went away`)) : resolve(output),
      );
      this.client.stdin.write(`${text}\n`);
    });
  }

  /** Starts a new tmux server after the last one went away (something on the machine ended it). */
  async restart() {
    await this.close();
    this.start();
  }

  screen() {
    return this.command('capture-pane -p -t main');
  }

  /**
   * Starts `argv` in the pane (with `env` and `cwd`, its stderr into `stderr` when given) and
   * resolves with the milliseconds until the screen passes `test`.
   */
  async time(argv, { env = {}, cwd, stderr, test, timeoutMs }) {
    await this.command('clear-history -t main');
    const words = ['env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv];
    const command = `exec ${words.map(quote).join(' ')} 2>>${quote(stderr ?? '/dev/null')}`;
    return this.until(test, {
      timeoutMs,
      start: () => this.command(`respawn-pane -k -t main ${cwd ? `-c ${quote(cwd)} ` : ''}${quote(command)}`),
    });
  }

  /**
   * Resolves with the milliseconds from the start of the pane's program (or from `start()`, which
   * starts one) until the screen passes `test`; rejects with the screen after `timeoutMs`.
   */
  async until(test, { start, timeoutMs = 60_000 } = {}) {
    let settle;
    const seen = new Promise((resolve) => (settle = resolve));
    let looking = false;
    let again = false;
    const look = async () => {
      if (looking) {
        again = true;
        return;
      }
      looking = true;
      do {
        again = false;
        const screen = await this.screen();
        if (test(screen)) {
          settle(performance.now() - this.started);
          this.onOutput = () => {};
          return;
        }
      } while (again);
      looking = false;
    };
    this.onOutput = () => void look();
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => void this.screen().then((s) => reject(new Error(`not seen in ${timeoutMs} ms:\n${s}`))),
        timeoutMs,
      );
    });
    try {
      if (start) {
        this.started = performance.now();
        await start();
      }
      // What was drawn before the reply to respawn-pane (or before this call) is looked at too.
      void look();
      return await Promise.race([seen, timeout]);
    } finally {
      clearTimeout(timer);
      this.onOutput = () => {};
    }
  }

  /** Whether the pane's program has exited. */
  async dead() {
    return (await this.command("display-message -p -t main '#{pane_dead}'")).trim() === '1';
  }

  /** Sends keys (tmux key names) to the pane. */
  keys(...keys) {
    return this.command(`send-keys -t main ${keys.map(quote).join(' ')}`);
  }

  /** Asks the program to quit with `keys` (again every second) until it exits; then kills it. */
  async quit(keys = ['C-q'], timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.dead()) && Date.now() < deadline) {
      await this.keys(...keys);
      for (let i = 0; i < 50 && !(await this.dead()); i++) await new Promise((r) => setTimeout(r, 20));
    }
    await this.command(`respawn-pane -k -t main ${quote(IDLE)}`);
  }

  async close() {
    try {
      execFileSync('tmux', ['-L', this.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    this.client.stdin.destroy();
    await this.closed;
    rmSync(this.socketPath, { force: true });
  }
}

/**
 * Real terminals for the test client (`terminal/*`): each one a child process through `sh -c`,
 * with output kept up to `outputByteLimit` (cut from the start, as the protocol says).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ProtocolError, type CreateTerminalRequest, type TerminalExitStatus } from '@acp-kit/protocol';

interface TestTerminal {
  request: CreateTerminalRequest;
  child: ChildProcess;
  output: string;
  truncated: boolean;
  exit: Promise<TerminalExitStatus>;
  exitStatus?: TerminalExitStatus;
  killed: boolean;
  released: boolean;
}

export class TestTerminals {
  readonly all = new Map<string, TestTerminal>();
  private next = 1;

  create(request: CreateTerminalRequest): { terminalId: string } {
    const terminalId = `term-${this.next++}`;
    const child = spawn(request.command, request.args ?? [], {
      cwd: request.cwd ?? undefined,
      env: { ...process.env, ...Object.fromEntries((request.env ?? []).map((v) => [v.name, v.value])) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const terminal: TestTerminal = {
      request,
      child,
      output: '',
      truncated: false,
      killed: false,
      released: false,
      exit: new Promise((resolve) => {
        child.on('close', (exitCode, signal) => {
          terminal.exitStatus = { exitCode, signal };
          resolve(terminal.exitStatus);
        });
      }),
    };
    const limit = request.outputByteLimit ?? Infinity;
    const onData = (chunk: Buffer): void => {
      terminal.output += chunk.toString('utf8');
      if (Buffer.byteLength(terminal.output) > limit) {
        terminal.output = Buffer.from(terminal.output).subarray(-limit).toString('utf8');
        terminal.truncated = true;
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    this.all.set(terminalId, terminal);
    return { terminalId };
  }

  private get(terminalId: string): TestTerminal {
    const terminal = this.all.get(terminalId);
    if (!terminal || terminal.released)
      throw ProtocolError.resourceNotFound('no such terminal', { terminalId });
    return terminal;
  }

  output(terminalId: string): { output: string; truncated: boolean; exitStatus: TerminalExitStatus | null } {
    const terminal = this.get(terminalId);
    return {
      output: terminal.output,
      truncated: terminal.truncated,
      exitStatus: terminal.exitStatus ?? null,
    };
  }

  async waitForExit(terminalId: string, signal: AbortSignal): Promise<TerminalExitStatus> {
    const terminal = this.get(terminalId);
    return new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(ProtocolError.requestCancelled()), { once: true });
      void terminal.exit.then(resolve);
    });
  }

  kill(terminalId: string): Record<string, never> {
    const terminal = this.get(terminalId);
    terminal.killed = true;
    if (terminal.exitStatus === undefined && terminal.child.pid) {
      try {
        process.kill(-terminal.child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    return {};
  }

  release(terminalId: string): Record<string, never> {
    const terminal = this.get(terminalId);
    if (terminal.exitStatus === undefined) this.kill(terminalId);
    terminal.released = true;
    return {};
  }

  /** Kills whatever is still running (test cleanup). */
  dispose(): void {
    for (const terminal of this.all.values()) {
      if (terminal.exitStatus === undefined && terminal.child.pid) {
        try {
          process.kill(-terminal.child.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  }
}

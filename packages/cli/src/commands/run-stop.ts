/**
 * The one way `acp run` ends, whatever ends it: the turn finishing, SIGINT, SIGTERM, SIGHUP, or
 * its output going away (a broken stdout pipe, reported as SIGPIPE). In that order: the turn is
 * cancelled (and given a moment to end), the session is closed (terminals killed by process group,
 * transcript flushed), then every agent — started or still starting — goes through its shutdown
 * sequence (stdin closed, SIGTERM, SIGKILL, to its whole process group). A repeated signal during
 * the shutdown escalates: the waits are skipped and the agents are killed at once, but every step
 * still runs. The exit code is the conventional 128 + the signal's number.
 */
import type { AcpClient, ClientSession } from '@acp-kit/client';
import { exitCodeForSignal, type StopSignal } from '../exit-codes.js';

/** Time given to each graceful step (the turn to end after cancel; each step of the agent's shutdown). */
export const STOP_GRACE_MS = 2000;

/**
 * @example
 * const stop = new RunStop(client, (text) => renderer.info(text));
 * const off = io.onSignal((signal) => stop.signal(signal));
 * try { … stop.session = session; stop.turn = session.prompt(parts); … } finally { await stop.finish(); off(); }
 */
export class RunStop {
  /** The session of the run, once it exists. */
  session: ClientSession | undefined;
  /** The running turn, once it was started. */
  turn: Promise<unknown> | undefined;
  private stopSignal: StopSignal | undefined;
  private cancelAsked = false;
  private escalated = false;
  private hurry: (() => void) | undefined;
  private finishing: Promise<void> | undefined;

  constructor(
    private readonly client: AcpClient,
    private readonly say: (text: string) => void,
    private readonly graceMs = STOP_GRACE_MS,
  ) {}

  /** The signal that stopped the run, if one did. */
  get stoppedBy(): StopSignal | undefined {
    return this.stopSignal;
  }

  /** The exit code a signal imposes (130, 143, 129, 141), or undefined when none stopped the run. */
  get exitCode(): number | undefined {
    return this.stopSignal === undefined ? undefined : exitCodeForSignal(this.stopSignal);
  }

  /** Whether the run is being stopped by a signal. */
  get stopping(): boolean {
    return this.stopSignal !== undefined;
  }

  /**
   * Handles a signal. The first Ctrl-C while a turn runs only cancels the turn (the run then ends
   * normally, with `cancelled`); anything else stops the run, and a signal during the stop
   * escalates it. A broken output never escalates (every later write fails the same way).
   */
  signal(signal: StopSignal): void {
    if (this.stopSignal !== undefined) {
      if (signal !== 'SIGPIPE') this.escalate();
      return;
    }
    if (signal === 'SIGINT' && !this.cancelAsked && this.turnRunning()) {
      this.cancelAsked = true;
      this.say('cancelling the turn (press Ctrl-C again to stop the agent)');
      void this.session?.cancel();
      return;
    }
    this.stopSignal = signal;
    // A second Ctrl-C after a cancel the agent did not honour: stop without waiting any more.
    const impatient = signal === 'SIGINT' && this.cancelAsked;
    if (signal !== 'SIGPIPE') this.say(impatient ? 'stopping the agent' : `${signal}: stopping the agent`);
    if (impatient) this.escalate();
    void this.finish();
  }

  /** Ends the run (once): cancel the turn, close the session, stop every agent. Never rejects. */
  finish(): Promise<void> {
    this.finishing ??= this.runFinish();
    return this.finishing;
  }

  private async runFinish(): Promise<void> {
    if (this.turnRunning()) {
      if (!this.cancelAsked) {
        this.cancelAsked = true;
        await this.session?.cancel().catch(() => undefined);
      }
      await this.wait(this.turn?.catch(() => undefined));
    }
    await this.session?.close().catch(() => undefined);
    await this.client.close(this.escalated ? 0 : this.graceMs).catch(() => undefined);
  }

  /** Skips the waits: the turn is no longer waited for, the agents and their terminals are killed. */
  private escalate(): void {
    if (this.escalated) return;
    this.escalated = true;
    this.say('stopping now: killing the agent');
    this.hurry?.();
    void this.client.kill().catch(() => undefined);
  }

  /** Waits for `promise`, at most the grace period, and not at all once escalated. */
  private async wait(promise: Promise<unknown> | undefined): Promise<void> {
    if (!promise || this.escalated) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      promise,
      new Promise<void>((resolve) => {
        this.hurry = resolve;
        timer = setTimeout(resolve, this.graceMs);
      }),
    ]);
    clearTimeout(timer);
    this.hurry = undefined;
  }

  /** A turn starts (the line mode runs many in one run): the next Ctrl-C cancels it again. */
  startTurn<T>(turn: Promise<T>): Promise<T> {
    this.turn = turn;
    this.cancelAsked = false;
    return turn;
  }

  /** Whether a turn of the session is running (Ctrl-C then cancels it rather than stopping). */
  turnRunning(): boolean {
    const status = this.session?.state.status;
    return this.turn !== undefined && (status === 'running' || status === 'cancelling');
  }
}

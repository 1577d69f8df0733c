/**
 * When the user last typed. A stream of text is drawn at a slower pace while the user is not
 * typing (see `SessionViewStore`); keys themselves are always drawn at once.
 */

/** How recent a key must be for the user to count as typing. */
export const TYPING_WINDOW_MS = 1000;

/**
 * @example
 * const activity = new InputActivity();
 * stdin.on('data', () => activity.noteInput());
 * if (activity.typedWithin(TYPING_WINDOW_MS)) drawSooner();
 */
export class InputActivity {
  private last = -Infinity;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Input arrived (`at` on the same clock as `now`). */
  noteInput(at: number = this.now()): void {
    this.last = at;
  }

  /** Whether input arrived in the last `ms` milliseconds. */
  typedWithin(ms: number): boolean {
    return this.now() - this.last <= ms;
  }
}

/** The terminal's input (fed by `runTui`). */
export const terminalInput = new InputActivity();

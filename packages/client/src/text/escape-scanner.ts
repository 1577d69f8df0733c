/**
 * A streaming scanner for terminal control sequences (ECMA-48 / xterm conventions).
 *
 * It splits input into plain text runs and control sequences. Callers decide what to keep:
 * the text sanitizer keeps text only, the terminal-output parser also reads SGR parameters.
 * State survives between `write` calls, so a sequence split across chunks is still recognised.
 */

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const DEL = 0x7f;

/** Longest CSI parameter string kept; longer ones are consumed but their parameters dropped. */
const MAX_CSI_PARAMS = 256;

const enum State {
  Ground,
  Escape,
  EscapeIntermediate,
  Csi,
  CsiIgnore,
  ControlString,
  ControlStringEscape,
}

/** Receives what the scanner finds. Text runs never contain ESC, C1 controls or other C0 controls. */
export interface ScanHandler {
  /** A run of printable text (may include `\n` and `\t`). */
  text(run: string): void;
  /** A C0 control other than `\n` / `\t` (or DEL), outside any sequence: `\r`, `\b`, BEL… */
  control?(code: number): void;
  /** A complete CSI sequence: parameter bytes, intermediate bytes, final byte. */
  csi?(params: string, intermediates: string, final: string): void;
}

/** Bidirectional overrides and isolates: they reorder what is displayed around them. */
export function isBidiControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** C0 controls except tab and newline, plus DEL, C1 controls and bidi controls. */
export function isUnsafeCodeUnit(code: number): boolean {
  if (code < 0x20) return code !== 0x09 && code !== 0x0a;
  if (code >= DEL && code <= 0x9f) return true;
  return isBidiControl(code);
}

// eslint-disable-next-line no-control-regex
const UNSAFE_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** True when `input` contains nothing the scanner would remove or interpret. */
export function isPlainText(input: string): boolean {
  return !UNSAFE_RE.test(input);
}

/**
 * Incremental scanner. Feed it chunks with {@link EscapeScanner.write}; each call reports the
 * text and sequences completed so far. An unfinished sequence at the end of a chunk is held in
 * the scanner's state (its bytes are never reported as text).
 */
export class EscapeScanner {
  private state = State.Ground;
  private params = '';
  private intermediates = '';

  constructor(private readonly handler: ScanHandler) {}

  /** True when no sequence is in progress. */
  get idle(): boolean {
    return this.state === State.Ground;
  }

  /** Forgets any sequence in progress. */
  reset(): void {
    this.state = State.Ground;
    this.params = '';
    this.intermediates = '';
  }

  write(input: string): void {
    if (this.state === State.Ground && isPlainText(input)) {
      if (input !== '') this.handler.text(input);
      return;
    }
    let runStart = 0;
    let i = 0;
    const flush = (end: number): void => {
      if (end > runStart) this.handler.text(input.slice(runStart, end));
    };
    while (i < input.length) {
      const code = input.charCodeAt(i);
      if (this.state === State.Ground) {
        if (!isUnsafeCodeUnit(code)) {
          i++;
          continue;
        }
        flush(i);
        this.ground(code);
        i++;
        runStart = i;
        continue;
      }
      // Inside a sequence: nothing is text until the sequence ends or is abandoned.
      const reprocess = this.step(code);
      if (reprocess) {
        // The sequence was abandoned at this code unit; it is handled again from the ground state.
        runStart = i;
        continue;
      }
      i++;
      runStart = i;
    }
    if (this.state === State.Ground) flush(input.length);
  }

  /** Handles an unsafe code unit seen in the ground state. */
  private ground(code: number): void {
    switch (code) {
      case ESC:
        this.state = State.Escape;
        return;
      case 0x9b: // C1 CSI
        this.beginCsi();
        return;
      case 0x9d: // C1 OSC
      case 0x90: // C1 DCS
      case 0x98: // C1 SOS
      case 0x9e: // C1 PM
      case 0x9f: // C1 APC
        this.state = State.ControlString;
        return;
      default:
        if (code < 0x20 || code === DEL) this.handler.control?.(code);
      // Other C1 controls and bidi controls are dropped.
    }
  }

  private beginCsi(): void {
    this.state = State.Csi;
    this.params = '';
    this.intermediates = '';
  }

  /** Advances a sequence by one code unit; true when the unit must be re-read in the ground state. */
  private step(code: number): boolean {
    switch (this.state) {
      case State.Escape:
        return this.escape(code);
      case State.EscapeIntermediate:
        if (code >= 0x20 && code <= 0x2f) return false;
        if (code >= 0x30 && code <= 0x7e) {
          this.state = State.Ground;
          return false;
        }
        return this.abandon(code);
      case State.Csi:
      case State.CsiIgnore:
        return this.csi(code);
      case State.ControlString:
        if (code === BEL || code === 0x9c) this.state = State.Ground;
        else if (code === ESC) this.state = State.ControlStringEscape;
        else if (code === CAN || code === SUB) this.state = State.Ground;
        return false;
      case State.ControlStringEscape:
        if (code === 0x5c) {
          this.state = State.Ground; // ESC \ is ST
          return false;
        }
        // Any other escape aborts the string and starts a new sequence.
        return this.escape(code);
      default:
        return true;
    }
  }

  private escape(code: number): boolean {
    if (code === 0x5b) {
      this.beginCsi();
      return false;
    }
    // OSC, DCS, SOS, PM, APC: strings that run until ST (or BEL).
    if (code === 0x5d || code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) {
      this.state = State.ControlString;
      return false;
    }
    if (code === ESC) {
      this.state = State.Escape;
      return false;
    }
    if (code >= 0x20 && code <= 0x2f) {
      this.state = State.EscapeIntermediate;
      return false;
    }
    if (code >= 0x30 && code <= 0x7e) {
      this.state = State.Ground; // two-character sequence such as ESC 7 or ESC c
      return false;
    }
    return this.abandon(code);
  }

  private csi(code: number): boolean {
    if (code >= 0x40 && code <= 0x7e) {
      const complete = this.state === State.Csi;
      this.state = State.Ground;
      if (complete) this.handler.csi?.(this.params, this.intermediates, String.fromCharCode(code));
      return false;
    }
    if (code >= 0x30 && code <= 0x3f) {
      if (this.intermediates !== '')
        this.state = State.CsiIgnore; // parameter after intermediate: malformed
      else if (this.params.length >= MAX_CSI_PARAMS) this.state = State.CsiIgnore;
      else this.params += String.fromCharCode(code);
      return false;
    }
    if (code >= 0x20 && code <= 0x2f) {
      this.intermediates += String.fromCharCode(code);
      return false;
    }
    if (code === ESC) {
      this.state = State.Escape;
      return false;
    }
    return this.abandon(code);
  }

  /** Drops the sequence in progress; CAN/SUB are consumed, anything else is re-read as text. */
  private abandon(code: number): boolean {
    this.state = State.Ground;
    return !(code === CAN || code === SUB);
  }
}

/**
 * The plain-text safety layer every host uses (the terminal UI, `acp run`, error messages):
 * agent-controlled text never reaches a terminal as control sequences. Everything that could move
 * the cursor, change modes, set the title or clipboard, open hyperlinks, or reorder text (bidi
 * overrides and isolates) is removed; printable text, `\n` and `\t` stay.
 */
import { EscapeScanner, isPlainText } from './escape-scanner.js';

/**
 * A sanitizer for text that arrives in pieces (streamed message chunks). Feeding the pieces one by
 * one gives exactly the same result as sanitizing their concatenation, even when a control
 * sequence is split across pieces.
 *
 * @example
 * const s = new TextSanitizer();
 * s.write('a\x1b]0;ti') + s.write('tle\x07b'); // 'ab'
 */
export class TextSanitizer {
  private out = '';
  private readonly scanner = new EscapeScanner({
    text: (run) => {
      this.out += run;
    },
  });

  /** Sanitizes the next piece and returns its safe text. */
  write(chunk: string): string {
    this.out = '';
    this.scanner.write(chunk);
    const result = this.out;
    this.out = '';
    return result;
  }

  /** Forgets a sequence left unfinished by the previous piece. */
  reset(): void {
    this.scanner.reset();
  }
}

/**
 * Removes every control sequence and control character from agent-controlled text: ESC/CSI/OSC
 * (including OSC 8 hyperlinks and OSC 52 clipboard writes), DCS/APC/PM/SOS strings, C0 controls
 * except `\n` and `\t`, DEL, C1 controls (U+0080–U+009F) and bidi overrides/isolates.
 * An unterminated sequence at the end is dropped.
 *
 * @example
 * sanitizeText('\x1b]8;;https://x\x1b\\click\x1b]8;;\x1b\\'); // 'click'
 */
export function sanitizeText(input: string): string {
  if (isPlainText(input)) return input;
  return new TextSanitizer().write(input);
}

/**
 * {@link sanitizeText} for one-line fields (titles, names, paths, option labels): newlines and
 * tabs become single spaces so the text cannot fake extra lines of UI.
 */
export function sanitizeInline(input: string): string {
  return sanitizeText(input).replace(/[\n\t]+/g, ' ');
}

/**
 * Terminal output (from `terminal/output` or an agent's display-only output channel) parsed into
 * lines of styled spans. Only the safe SGR subset survives; every other sequence is dropped.
 * `\r` (not followed by `\n`) starts the line over, as progress bars expect, and `\b` erases the
 * previous character (which also resolves man-page style overstrike).
 */
import { EscapeScanner } from '@acp-kit/client';
import { separateEmojiModifiers } from './sanitize-text.js';
import { applySgr, isPlainStyle, PLAIN_STYLE, sameStyle, styleToSgr, type TextStyle } from './sgr.js';

/** A run of text with one style. */
export interface StyledSpan {
  readonly text: string;
  readonly style: TextStyle;
}

/** One line of output: spans in order (empty for a blank line). */
export type StyledLine = readonly StyledSpan[];

const TAB_WIDTH = 8;

class LineBuilder {
  readonly lines: StyledSpan[][] = [];
  private current: StyledSpan[] = [];
  private column = 0;
  private pendingCarriageReturn = false;
  style: TextStyle = PLAIN_STYLE;

  text(run: string): void {
    let start = 0;
    for (let i = 0; i < run.length; i++) {
      const ch = run.charCodeAt(i);
      if (ch === 0x0a) {
        this.append(run.slice(start, i));
        this.newline();
        start = i + 1;
      } else if (ch === 0x09) {
        this.append(run.slice(start, i));
        this.append(' '.repeat(TAB_WIDTH - (this.column % TAB_WIDTH)));
        start = i + 1;
      }
    }
    this.append(run.slice(start));
  }

  control(code: number): void {
    if (code === 0x0d) this.pendingCarriageReturn = true;
    else if (code === 0x08) this.backspace();
  }

  private append(text: string): void {
    if (text === '') return;
    if (this.pendingCarriageReturn) {
      this.current = [];
      this.column = 0;
      this.pendingCarriageReturn = false;
    }
    const last = this.current[this.current.length - 1];
    if (last && sameStyle(last.style, this.style)) {
      this.current[this.current.length - 1] = { text: last.text + text, style: last.style };
    } else {
      this.current.push({ text, style: this.style });
    }
    this.column += text.length;
  }

  private backspace(): void {
    const last = this.current[this.current.length - 1];
    if (!last) return;
    const chars = Array.from(last.text);
    chars.pop();
    if (chars.length === 0) this.current.pop();
    else this.current[this.current.length - 1] = { text: chars.join(''), style: last.style };
    this.column = Math.max(0, this.column - 1);
  }

  newline(): void {
    this.pendingCarriageReturn = false;
    this.lines.push(this.current);
    this.current = [];
    this.column = 0;
  }

  finish(): StyledLine[] {
    if (this.current.length > 0) this.lines.push(this.current);
    return this.lines;
  }
}

/**
 * Parses terminal output into styled lines. A trailing newline does not produce an empty last line.
 *
 * @example
 * parseTerminalOutput('\x1b[32mok\x1b[0m\n'); // [[{ text: 'ok', style: { fg: green } }]]
 */
export function parseTerminalOutput(output: string): StyledLine[] {
  const builder = new LineBuilder();
  const scanner = new EscapeScanner({
    text: (run) => builder.text(separateEmojiModifiers(run)),
    control: (code) => builder.control(code),
    csi: (params, intermediates, final) => {
      // Only plain SGR: no private markers (`<=>?`), no intermediates.
      if (final === 'm' && intermediates === '' && /^[\d;:]*$/.test(params)) {
        builder.style = applySgr(builder.style, params);
      }
    },
  });
  scanner.write(output);
  return builder.finish();
}

/** The plain text of styled lines (no styles). */
export function styledLinesToPlainText(lines: readonly StyledLine[]): string {
  return lines.map((line) => line.map((span) => span.text).join('')).join('\n');
}

/**
 * Re-emits styled lines as text whose only escape sequences are SGR sequences generated from the
 * parsed styles. Every styled line ends with a reset, so no style leaks into the next line or
 * into the surrounding UI.
 */
export function styledLinesToSgrText(lines: readonly StyledLine[]): string {
  return lines
    .map((line) => {
      let out = '';
      let current: TextStyle = PLAIN_STYLE;
      for (const span of line) {
        if (!sameStyle(span.style, current)) {
          out += styleToSgr(span.style);
          current = span.style;
        }
        out += span.text;
      }
      return isPlainStyle(current) ? out : `${out}\x1b[0m`;
    })
    .join('\n');
}

/**
 * Sanitizes terminal output for a terminal: every control sequence is dropped except SGR colours
 * and styles, which are re-emitted from a parsed safe subset.
 *
 * @example
 * sanitizeTerminalOutput('\x1b[2J\x1b[31mred\x1b]0;title\x07'); // '\x1b[0;31mred\x1b[0m'
 */
export function sanitizeTerminalOutput(output: string): string {
  return styledLinesToSgrText(parseTerminalOutput(output));
}

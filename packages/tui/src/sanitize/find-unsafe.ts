/**
 * A checker for rendered output: finds anything a terminal would interpret other than text,
 * newlines, tabs and (optionally) SGR colour sequences. Used by component tests on Ink frames and
 * by the tmux tests on `capture-pane -e` output.
 */
import { isBidiControl } from '@acp-kit/client';

/** One thing in rendered output that should not be there. */
export interface UnsafeFinding {
  /** Offset in the checked string. */
  readonly index: number;
  readonly kind: 'escape-sequence' | 'c0-control' | 'c1-control' | 'bidi-control';
  /** Up to 24 characters from `index`, with controls made visible. */
  readonly excerpt: string;
}

/** Options for {@link findUnsafeSequences}. */
export interface FindUnsafeOptions {
  /** Accept `ESC [ <digits;:> m` (SGR) sequences, as produced by Ink's own colours. Default true. */
  readonly allowSgr?: boolean;
}

const SGR_AT = /\x1b\[[\d;:]*m/y; // eslint-disable-line no-control-regex

/** Shows control characters as `\xNN` / `\uNNNN` so a finding can be printed safely. */
export function visualizeControls(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code === 0x0a) out += '\\n';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (isBidiControl(code)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/**
 * Lists every escape sequence (other than SGR when allowed), C0 control (other than `\n`, `\t`),
 * DEL, C1 control and bidi control in `text`. An empty list means the text is safe to print.
 *
 * @example
 * expect(findUnsafeSequences(lastFrame() ?? '')).toEqual([]);
 */
export function findUnsafeSequences(text: string, options: FindUnsafeOptions = {}): UnsafeFinding[] {
  const allowSgr = options.allowSgr ?? true;
  const findings: UnsafeFinding[] = [];
  const report = (index: number, kind: UnsafeFinding['kind']): void => {
    findings.push({ index, kind, excerpt: visualizeControls(text.slice(index, index + 24)) });
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x1b) {
      if (allowSgr) {
        SGR_AT.lastIndex = i;
        const match = SGR_AT.exec(text);
        if (match) {
          i += match[0].length - 1;
          continue;
        }
      }
      report(i, 'escape-sequence');
    } else if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) {
      report(i, 'c0-control');
    } else if (code >= 0x80 && code <= 0x9f) {
      report(i, 'c1-control');
    } else if (isBidiControl(code)) {
      report(i, 'bidi-control');
    }
  }
  return findings;
}

import { describe, expect, it } from 'vitest';
import { ESCAPE_CORPUS } from '../../sanitize/corpus.js';
import { KeyInputFilter } from './key-input-filter.js';

const ESC = '\x1b';

function filter(...chunks: string[]): { output: string; keys: string[]; dropped: number } {
  const f = new KeyInputFilter();
  let output = '';
  const keys: string[] = [];
  let dropped = 0;
  for (const chunk of chunks) {
    const result = f.push(chunk);
    output += result.output;
    keys.push(...result.keys);
    dropped += result.dropped;
  }
  output += f.flush();
  return { output, keys, dropped };
}

/** Key sequences Ink understands (what may remain in the output). */
const KEY_SEQUENCE = /\x1b(?:\[[\d;]*[ABCDEFHZ~]|O[ABCDFH]|[^\x1b[\]O]|\x1b|$)/g; // eslint-disable-line no-control-regex

describe('KeyInputFilter', () => {
  it('passes text, control keys and the key sequences Ink names', () => {
    const keys = [
      'a',
      'é',
      '\r',
      '\x7f',
      '\x03',
      `${ESC}[A`,
      `${ESC}[1;5C`,
      `${ESC}[Z`,
      `${ESC}[3~`,
      `${ESC}[5~`,
      `${ESC}OH`,
      `${ESC}x`,
      `${ESC}\r`,
      ESC,
    ];
    for (const key of keys) expect(filter(key).output, JSON.stringify(key)).toBe(key);
    expect(filter('hello world').output).toBe('hello world');
  });

  it('drops SGR, OSC, mouse, focus and paste markers, and C1 controls', () => {
    expect(filter(`a${ESC}[31mb${ESC}[0m`)).toEqual({ output: 'ab', keys: [], dropped: 2 });
    expect(filter(`${ESC}]52;c;aGk=\x07x`).output).toBe('x');
    expect(filter(`${ESC}[<0;10;5M${ESC}[I${ESC}[O`).output).toBe('');
    expect(filter(`${ESC}[200~pasted${ESC}[201~`).output).toBe('pasted');
    expect(filter('a\u009b2Jb').output).toBe('a2Jb');
    expect(filter(`${ESC}[?1049h`).output).toBe('');
  });

  it('takes a bracketed paste as one text segment, even across chunks, without keys in it', () => {
    const f = new KeyInputFilter();
    expect(f.push(`a${ESC}[200~/tmp/My shot.png\r\nline 2\x7f${ESC}[31m red${ESC}[2`).segments).toEqual([
      { kind: 'text', text: 'a' },
    ]);
    expect(f.hasPending).toBe(false);
    expect(f.flush()).toBe('');
    const end = f.push(`01~b\r`);
    expect(end.segments).toEqual([
      { kind: 'paste', text: '/tmp/My shot.png\nline 2 red' },
      { kind: 'text', text: 'b' },
      { kind: 'key', text: '\r' },
    ]);
    expect(end.output).toBe('/tmp/My shot.png\nline 2 redb\r');
    expect(filter(`${ESC}[200~${ESC}[201~x`).output).toBe('x');
  });

  it('splits typed input into key presses and printable text: a typed line break is Enter', () => {
    const f = new KeyInputFilter();
    expect(f.push('a prompt typed by a script\r').segments).toEqual([
      { kind: 'text', text: 'a prompt typed by a script' },
      { kind: 'key', text: '\r' },
    ]);
    expect(f.push(`ny\r\t${ESC}[Ay${ESC}[1;5C${ESC}x${ESC}\r😀\x7f`).segments).toEqual([
      { kind: 'text', text: 'ny' },
      { kind: 'key', text: '\r' },
      { kind: 'key', text: '\t' },
      { kind: 'key', text: `${ESC}[A` },
      { kind: 'text', text: 'y' },
      { kind: 'key', text: `${ESC}[1;5C` },
      { kind: 'key', text: `${ESC}x` },
      { kind: 'key', text: `${ESC}\r` },
      { kind: 'text', text: '😀' },
      { kind: 'key', text: '\x7f' },
    ]);
    expect(f.push('one\ntwo').segments).toEqual([
      { kind: 'text', text: 'one' },
      { kind: 'key', text: '\n' },
      { kind: 'text', text: 'two' },
    ]);
  });

  it('turns F1 (xterm, rxvt, Linux console, modified) into a key and drops other function keys', () => {
    for (const f1 of [`${ESC}OP`, `${ESC}[11~`, `${ESC}[[A`, `${ESC}[1;2P`]) {
      expect(filter(f1), JSON.stringify(f1)).toEqual({ output: '', keys: ['f1'], dropped: 0 });
    }
    expect(filter(`${ESC}[15~${ESC}OQ`).output).toBe('');
  });

  it('holds a sequence split across chunks until it completes', () => {
    const f = new KeyInputFilter();
    expect(f.push(`x${ESC}[`).output).toBe('x');
    expect(f.hasPending).toBe(true);
    expect(f.push('1;5C').output).toBe(`${ESC}[1;5C`);
    expect(f.push(`${ESC}]0;tit`).output).toBe('');
    expect(f.push(`le${ESC}\\y`).output).toBe('y');
  });

  it('ends a held lone Escape as a key press and drops a held unfinished sequence', () => {
    const f = new KeyInputFilter();
    f.push(ESC);
    expect(f.flush()).toBe(ESC);
    f.push(`${ESC}]8;;http://x`);
    expect(f.flush()).toBe('');
  });

  it('lets nothing from the escape corpus through but text and key sequences', () => {
    for (const entry of ESCAPE_CORPUS) {
      const { output } = filter(entry.input);
      const rest = output.replace(KEY_SEQUENCE, '');
      expect(rest.includes(ESC), entry.name).toBe(false);
      expect(/[\u0080-\u009f]/.test(rest), entry.name).toBe(false);
    }
  });
});

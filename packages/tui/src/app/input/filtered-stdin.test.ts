import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, FilteredStdin } from './filtered-stdin.js';

/** The terminal side: a TTY-like stdin that emits what a test sends, and the output for mode switches. */
class FakeTerminal extends EventEmitter {
  readonly isTTY = true;
  readonly modes: string[] = [];
  setRawMode(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  write(data: string): boolean {
    this.modes.push(data);
    return true;
  }
  send(text: string): void {
    this.emit('data', Buffer.from(text, 'utf8'));
  }
}

const nextTimer = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

let stdin: FilteredStdin | undefined;
afterEach(() => {
  stdin?.setRawMode(false);
  stdin = undefined;
});

/** A FilteredStdin reading `terminal`, recording each key it hands on (as Ink would read it). */
function open(terminal: FakeTerminal): { input: FilteredStdin; handed: string[] } {
  const input = new FilteredStdin(terminal as unknown as NodeJS.ReadStream, { terminal });
  const handed: string[] = [];
  const write = input.write.bind(input) as (chunk: string) => boolean;
  input.write = ((chunk: string) => {
    handed.push(chunk);
    return write(chunk);
  }) as typeof input.write;
  input.setRawMode(true);
  stdin = input;
  return { input, handed };
}

describe('FilteredStdin', () => {
  it('hands keys on one turn of the event loop apart, also across chunks', async () => {
    const terminal = new FakeTerminal();
    const { handed } = open(terminal);
    terminal.send('hi');
    expect(handed).toEqual(['h']);
    await nextTimer();
    expect(handed).toEqual(['h', 'i']);
    // Enter read in the same turn as `i` was handed on: Ink has not rendered `i` yet, so it waits.
    terminal.send('\r');
    expect(handed).toEqual(['h', 'i']);
    await nextTimer();
    expect(handed).toEqual(['h', 'i', '\r']);
  });

  it('hands typed text followed by Enter on as text and then Enter, however long the text', async () => {
    const terminal = new FakeTerminal();
    const { handed } = open(terminal);
    const long = 'a prompt typed by a script';
    terminal.send(`${long}\r`);
    await nextTimer();
    expect(handed).toEqual([long, '\r']);
    terminal.send('ok\r');
    await nextTimer();
    await nextTimer();
    await nextTimer();
    expect(handed).toEqual([long, '\r', 'o', 'k', '\r']);
  });

  it('hands a bracketed paste with line breaks on whole, as text', async () => {
    const terminal = new FakeTerminal();
    const { handed } = open(terminal);
    terminal.send('\x1b[200~first line of a paste\r\nsecond\r\x1b[201~\r');
    await nextTimer();
    expect(handed).toEqual(['first line of a paste\nsecond\n', '\r']);
  });

  it('hands a bracketed paste on whole, and turns paste mode on only while keys are read', async () => {
    const terminal = new FakeTerminal();
    const { input, handed } = open(terminal);
    expect(terminal.modes).toEqual([BRACKETED_PASTE_ON]);
    terminal.send('\x1b[200~/tmp/a.png\r\x1b[201~');
    expect(handed).toEqual(['/tmp/a.png\n']);
    await nextTimer();
    terminal.send('\x1b[200~\t\x1b[201~x');
    await nextTimer();
    expect(handed).toEqual(['/tmp/a.png\n', 'x']);
    input.suspend();
    input.resumeInput();
    input.setRawMode(false);
    expect(terminal.modes).toEqual([
      BRACKETED_PASTE_ON,
      BRACKETED_PASTE_OFF,
      BRACKETED_PASTE_ON,
      BRACKETED_PASTE_OFF,
    ]);
  });
});

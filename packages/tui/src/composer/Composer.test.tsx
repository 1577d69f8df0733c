import { describe, expect, it, vi } from 'vitest';
import type { AvailableCommand } from '@acp-kit/protocol';
import { KEYS, renderInk, expectSafeFrame, flat } from '../test-support/ink.js';
import { ESCAPE_CORPUS } from '../sanitize/corpus.js';
import { Composer } from './Composer.js';

const commands: AvailableCommand[] = [
  { name: 'plan', description: 'Write a plan first', input: { hint: 'what to plan' } },
  { name: 'review', description: 'Review the diff' },
  { name: 'pr comments', description: 'Address PR comments' },
];
const files = ['src/parser.ts', 'src/printer.ts', 'README.md', 'docs/protocol.md'];

function setup(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSubmit = vi.fn<(text: string) => void>();
  const r = renderInk(<Composer onSubmit={onSubmit} commands={commands} files={files} {...props} />);
  const body = () =>
    r
      .frame()
      .split('\n')
      .filter((l) => !/^[╭╰]/.test(l))
      .map((l) => l.replace(/^│ ?| ?│$/g, '').trimEnd());
  return { ...r, onSubmit, body };
}

describe('Composer', () => {
  it('shows a placeholder, and a different one while the agent works', () => {
    expect(flat(setup().frame())).toContain('Message · / for commands · @ to mention a file');
    expect(flat(setup({ busy: true }).frame())).toContain('The agent is working · type to queue a prompt');
  });

  it('submits on Enter and clears', async () => {
    const { type, press, onSubmit, body } = setup();
    await type('hello');
    expect(body()[0]).toBe('› hello');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('hello');
    expect(flat(body().join('\n'))).toContain('Message');
  });

  it('edits multi-line text: Alt+Enter, a trailing backslash, cursor movement', async () => {
    const { type, press, onSubmit, body } = setup();
    await type('one');
    await press(KEYS.altEnter);
    await type('two\\');
    await press(KEYS.enter);
    await type('three');
    expect(body().slice(0, 3)).toEqual(['› one', '  two', '  three']);
    await press(KEYS.up, KEYS.left, KEYS.backspace);
    expect(body()[1]).toBe('  to');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('one\nto\nthree');
  });

  it('inserts pasted text whole, normalising line endings and dropping control characters', async () => {
    const { press, body, frame } = setup();
    await press('line 1\r\nline 2\x07\u202e\u0085 end');
    expect(body().slice(0, 2)).toEqual(['› line 1', '  line 2 end']);
    // Ink delivers escape sequences as key events; none of them reaches the text.
    await press('\x1b[200~', '\x1b[I', '\x1b]0;t\x07');
    expectSafeFrame(frame());
  });

  it('browses history with up and down, keeping the draft', async () => {
    const { type, press, body } = setup({ history: ['first', 'second'] });
    await type('draft');
    await press(KEYS.up);
    expect(body()[0]).toBe('› second');
    await press(KEYS.up);
    expect(body()[0]).toBe('› first');
    await press(KEYS.down, KEYS.down);
    expect(body()[0]).toBe('› draft');
  });

  it('offers slash commands with descriptions and hints, and completes them', async () => {
    const { type, press, body, onSubmit } = setup();
    await type('/p');
    expect(body().slice(1)).toEqual([
      '  /plan <what to plan>  Write a plan first',
      '  /pr comments  Address PR comments',
    ]);
    await press(KEYS.down, KEYS.tab);
    expect(body()[0]).toBe('› /pr comments');
    await press(KEYS.ctrl('u'));
    await type('/pla');
    await press(KEYS.enter);
    expect(body()).toEqual(['› /plan  what to plan']);
    await type('the refactor');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('/plan the refactor');
  });

  it('closes the palette with Esc', async () => {
    const { type, press, body } = setup();
    await type('/r');
    expect(body()).toHaveLength(3);
    await press(KEYS.escape);
    expect(body()).toEqual(['› /r']);
  });

  it('fuzzy-matches files after @ and inserts the mention', async () => {
    const { type, press, body, onSubmit } = setup();
    await type('look at @prs');
    expect(body().slice(1)).toEqual(['  @src/parser.ts', '  @src/printer.ts']);
    await press(KEYS.enter);
    expect(body()[0]).toBe('› look at @src/parser.ts');
    await type('now');
    await press(KEYS.enter);
    expect(onSubmit).toHaveBeenCalledWith('look at @src/parser.ts now');
  });

  it('shows queued prompts', () => {
    expect(setup({ queued: 2 }).frame().split('\n')[0]).toBe(
      '⏳ 2 prompts queued · sent when the current turn ends',
    );
  });

  it('opens help from an empty composer only', async () => {
    const onHelp = vi.fn();
    const { type, body } = setup({ onHelp });
    await type('?');
    expect(onHelp).toHaveBeenCalledTimes(1);
    await type('a?');
    expect(onHelp).toHaveBeenCalledTimes(1);
    expect(body()[0]).toBe('› a?');
  });

  it('is safe for hostile command names, descriptions and file names', async () => {
    for (const entry of ESCAPE_CORPUS) {
      const r = setup({
        commands: [{ name: `x${entry.input}`, description: entry.input, input: { hint: entry.input } }],
        files: [`x${entry.input}`],
      });
      await r.type('/x');
      expectSafeFrame(r.frame());
      await r.press(KEYS.ctrl('u'));
      await r.type('@x');
      expectSafeFrame(r.frame());
      if (entry.visible) expect(flat(r.frame())).toContain(flat(entry.visible));
      r.unmount();
    }
  });
});

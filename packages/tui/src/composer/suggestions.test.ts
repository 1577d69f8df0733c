import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyScore } from './fuzzy.js';
import { computeSuggestions, extractMentions, mentionAt } from './suggestions.js';
import { composerReducer, INITIAL_COMPOSER } from './composer-state.js';
import { cursorPosition, deleteWordBackward, moveVertical } from './buffer.js';

describe('fuzzy matching', () => {
  it('requires the characters in order and prefers starts, separators and runs', () => {
    expect(fuzzyScore('xyz', 'src/parser.ts')).toBeUndefined();
    expect(fuzzyScore('pts', 'src/parser.ts')?.positions).toEqual([4, 11, 12]);
    expect(fuzzyFilter('par', ['src/compare.ts', 'src/parser.ts', 'par.md']).map((m) => m.value)).toEqual([
      'par.md',
      'src/parser.ts',
      'src/compare.ts',
    ]);
  });
});

describe('suggestions', () => {
  const commands = [
    { name: 'plan', description: 'd' },
    { name: 'pr comments', description: 'd' },
  ];
  it('offers commands while typing the name, not while typing its input', () => {
    expect(computeSuggestions('/pl', 3, commands, []).kind).toBe('command');
    expect(computeSuggestions('/plan ', 6, commands, []).kind).toBe('none');
    expect(computeSuggestions('/pr c', 5, commands, []).kind).toBe('command');
    expect(computeSuggestions('a /pl', 5, commands, []).kind).toBe('none');
  });

  it('finds the @ word at the cursor', () => {
    expect(mentionAt('see @src/a', 10)).toEqual({ query: 'src/a', start: 4 });
    expect(mentionAt('mail a@b.c', 10)).toBeUndefined();
    expect(extractMentions('@a.ts and @b.ts, @a.ts x@y')).toEqual(['a.ts', 'b.ts,']);
  });
});

describe('composer editing', () => {
  it('keeps the column moving between lines and deletes words', () => {
    const buffer = { text: 'abcdef\nxy\nlonger line', cursor: 5 };
    const down = moveVertical(buffer, 1);
    expect(cursorPosition(down)).toEqual({ line: 1, column: 2 });
    expect(deleteWordBackward({ text: 'foo bar  ', cursor: 9 })).toEqual({ text: 'foo ', cursor: 4 });
  });

  it('deletes whole surrogate pairs', () => {
    const typed = composerReducer(INITIAL_COMPOSER, { type: 'insert', text: 'a😀' });
    expect(composerReducer(typed, { type: 'edit', edit: 'backspace' }).text).toBe('a');
  });
});

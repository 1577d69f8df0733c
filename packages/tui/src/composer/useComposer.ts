import { useMemo, useReducer, useRef } from 'react';
import { useInput } from 'ink';
import type { AvailableCommand } from '@acp-kit/protocol';
import { useActionMatcher } from '../keys/KeyBindingsContext.js';
import { sanitizeText } from '../sanitize/sanitize-text.js';
import { onEdgeLine } from './buffer.js';
import {
  composerReducer,
  INITIAL_COMPOSER,
  type ComposerAction,
  type ComposerState,
} from './composer-state.js';
import { computeSuggestions, type Suggestions } from './suggestions.js';

/** Options of {@link useComposer}. */
export interface ComposerOptions {
  readonly commands: readonly AvailableCommand[];
  readonly files: readonly string[];
  readonly history: readonly string[];
  readonly onSubmit: (text: string) => void;
  readonly onHelp?: () => void;
  readonly isActive: boolean;
}

/** The completion text for the highlighted suggestion. */
function completion(
  suggestions: Suggestions,
  selected: number,
): { from: number; insert: string } | undefined {
  if (suggestions.kind === 'command') {
    const item = suggestions.items[selected];
    return item && { from: suggestions.replaceFrom, insert: `/${item.command.name} ` };
  }
  if (suggestions.kind === 'file') {
    const item = suggestions.items[selected];
    return item && { from: suggestions.replaceFrom, insert: `@${item.value} ` };
  }
  return undefined;
}

/** Typed or pasted text, with line endings normalised and control characters removed. */
function cleanInput(input: string): string {
  return sanitizeText(input.replace(/\r\n?/g, '\n'));
}

/**
 * State and keyboard handling of the composer: editing, history, suggestions and submission.
 * Enter submits (a trailing `\` continues the line instead); Alt+Enter or Ctrl+J inserts a new
 * line; pasted text is inserted whole.
 */
export function useComposer({ commands, files, history, onSubmit, onHelp, isActive }: ComposerOptions): {
  state: ComposerState;
  suggestions: Suggestions;
} {
  const [state, dispatch] = useReducer(composerReducer, INITIAL_COMPOSER);
  const is = useActionMatcher();
  const suggestions = useMemo(
    () =>
      state.dismissed
        ? ({ kind: 'none' } as const)
        : computeSuggestions(state.text, state.cursor, commands, files),
    [state.dismissed, state.text, state.cursor, commands, files],
  );
  const open = suggestions.kind !== 'none';
  const count = open ? suggestions.items.length : 0;
  const selected = Math.min(state.selected, Math.max(0, count - 1));

  const act = (action: ComposerAction): void => dispatch(action);
  // Keys can arrive before Ink registers the handler of the latest render: read from here.
  const latest = useRef({ state, suggestions, open, count, selected, history });
  latest.current = { state, suggestions, open, count, selected, history };

  useInput(
    (input, key) => {
      const { state, suggestions, open, count, selected, history } = latest.current;
      const complete = completion(suggestions, selected);
      if (open && is('composer.dismiss', input, key)) act({ type: 'dismiss' });
      else if (open && is('composer.previous', input, key)) act({ type: 'select', delta: -1, count });
      else if (open && is('composer.next', input, key)) act({ type: 'select', delta: 1, count });
      else if (complete && (is('composer.complete', input, key) || is('composer.submit', input, key))) {
        act({ type: 'replace', ...complete });
      } else if (is('composer.newline', input, key)) act({ type: 'insert', text: '\n' });
      else if (is('composer.submit', input, key)) {
        if (state.text.slice(0, state.cursor).endsWith('\\')) {
          act({ type: 'edit', edit: 'backspace' });
          act({ type: 'insert', text: '\n' });
        } else if (state.text.trim() !== '') {
          onSubmit(state.text);
          act({ type: 'clear' });
        }
      } else if (is('composer.previous', input, key)) {
        act(
          onEdgeLine(state, 'first')
            ? { type: 'history', direction: -1, history }
            : { type: 'move', move: 'up' },
        );
      } else if (is('composer.next', input, key)) {
        act(
          onEdgeLine(state, 'last')
            ? { type: 'history', direction: 1, history }
            : { type: 'move', move: 'down' },
        );
      } else if (onHelp && state.text === '' && is('app.help', input, key)) onHelp();
      else if (key.leftArrow) act({ type: 'move', move: 'left' });
      else if (key.rightArrow) act({ type: 'move', move: 'right' });
      else if (key.home || (key.ctrl && input === 'a')) act({ type: 'move', move: 'lineStart' });
      else if (key.end || (key.ctrl && input === 'e')) act({ type: 'move', move: 'lineEnd' });
      else if ((key.backspace || key.delete) && key.meta) act({ type: 'edit', edit: 'deleteWord' });
      else if (key.backspace || key.delete) act({ type: 'edit', edit: 'backspace' });
      else if (key.ctrl && input === 'd') act({ type: 'edit', edit: 'delete' });
      else if (key.ctrl && input === 'w') act({ type: 'edit', edit: 'deleteWord' });
      else if (key.ctrl && input === 'u') act({ type: 'edit', edit: 'killStart' });
      else if (key.ctrl && input === 'k') act({ type: 'edit', edit: 'killEnd' });
      else if (!key.ctrl && !key.meta && !key.escape && !key.tab && !key.return && input !== '') {
        const text = cleanInput(input);
        if (text !== '') act({ type: 'insert', text });
      }
    },
    { isActive },
  );
  return { state: { ...state, selected }, suggestions };
}

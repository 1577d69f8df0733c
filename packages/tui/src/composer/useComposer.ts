import { useCallback, useRef, useState } from 'react';
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
import type { ImageAttachment } from './image-attachment.js';
import { computeSuggestions, type Suggestions } from './suggestions.js';
import { useImageInput, type ImageInputOptions } from './useImageInput.js';

/** Options of {@link useComposer}. */
export interface ComposerOptions extends ImageInputOptions {
  readonly commands: readonly AvailableCommand[];
  readonly files: readonly string[];
  readonly history: readonly string[];
  /** Called with the text and the attached images when the user sends the prompt. */
  readonly onSubmit: (text: string, images: readonly ImageAttachment[]) => void;
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

const NONE: Suggestions = { kind: 'none' };

/** The suggestions of the last state asked about (a key and the render after it ask for the same). */
interface SuggestionMemo {
  readonly state: ComposerState;
  readonly commands: readonly AvailableCommand[];
  readonly files: readonly string[];
  readonly value: Suggestions;
}

function suggestionsFor(
  memo: { current: SuggestionMemo | undefined },
  state: ComposerState,
  commands: readonly AvailableCommand[],
  files: readonly string[],
): Suggestions {
  const last = memo.current;
  if (
    last &&
    last.commands === commands &&
    last.files === files &&
    last.state.text === state.text &&
    last.state.cursor === state.cursor &&
    last.state.dismissed === state.dismissed
  ) {
    return last.value;
  }
  const value = state.dismissed ? NONE : computeSuggestions(state.text, state.cursor, commands, files);
  memo.current = { state, commands, files, value };
  return value;
}

/**
 * State and keyboard handling of the composer: editing, history, suggestions, attached images
 * and submission. Enter submits (a trailing `\` continues the line instead); Alt+Enter or Ctrl+J
 * inserts a new line; pasted text is inserted whole, unless it is only image paths and the agent
 * accepts images (then they are attached); Ctrl+V attaches the clipboard's image; Backspace at
 * the start removes the last image.
 */
export function useComposer(options: ComposerOptions): { state: ComposerState; suggestions: Suggestions } {
  const { commands, files, isActive } = options;
  const [state, setState] = useState(INITIAL_COMPOSER);
  // The state as of the last key, ahead of React's render: when keys arrive faster than renders
  // (a busy event loop), Enter must still send every character typed before it.
  const current = useRef(state);
  const latest = useRef(options);
  latest.current = options;
  const memo = useRef<SuggestionMemo | undefined>(undefined);
  const act = useCallback((action: ComposerAction): void => {
    current.current = composerReducer(current.current, action);
    setState(current.current);
  }, []);
  const is = useActionMatcher();
  const images = useImageInput(current, act, latest);
  const suggestions = suggestionsFor(memo, state, commands, files);
  const shownCount = suggestions.kind === 'none' ? 0 : suggestions.items.length;

  useInput(
    (input, key) => {
      const { commands, files, history, onSubmit, onHelp } = latest.current;
      const state = current.current;
      const suggestions = suggestionsFor(memo, state, commands, files);
      const open = suggestions.kind !== 'none';
      const count = open ? suggestions.items.length : 0;
      const complete = completion(suggestions, Math.min(state.selected, Math.max(0, count - 1)));
      const backspace = key.backspace || key.delete;
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
        } else if (state.text.trim() !== '' || state.attachments.length > 0) {
          onSubmit(state.text, state.attachments);
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
      else if (is('composer.pasteImage', input, key)) images.clipboard();
      else if (key.leftArrow) act({ type: 'move', move: 'left' });
      else if (key.rightArrow) act({ type: 'move', move: 'right' });
      else if (key.home || (key.ctrl && input === 'a')) act({ type: 'move', move: 'lineStart' });
      else if (key.end || (key.ctrl && input === 'e')) act({ type: 'move', move: 'lineEnd' });
      else if (backspace && !key.meta && state.cursor === 0 && state.attachments.length > 0)
        act({ type: 'detach' });
      else if (backspace && key.meta) act({ type: 'edit', edit: 'deleteWord' });
      else if (backspace) act({ type: 'edit', edit: 'backspace' });
      else if (key.ctrl && input === 'd') act({ type: 'edit', edit: 'delete' });
      else if (key.ctrl && input === 'w') act({ type: 'edit', edit: 'deleteWord' });
      else if (key.ctrl && input === 'u') act({ type: 'edit', edit: 'killStart' });
      else if (key.ctrl && input === 'k') act({ type: 'edit', edit: 'killEnd' });
      else if (!key.ctrl && !key.meta && !key.escape && !key.tab && !key.return && input !== '') {
        const text = cleanInput(input);
        // More than one character in one event: a paste, a drop, or a burst of typing (never with
        // a line break typed in it: that arrives as Enter). Maybe image paths.
        const pasted = [...input].length > 1;
        if (text !== '' && !(pasted && images.paste(text))) act({ type: 'insert', text });
      }
    },
    { isActive },
  );
  return {
    state: { ...state, selected: Math.min(state.selected, Math.max(0, shownCount - 1)) },
    suggestions,
  };
}

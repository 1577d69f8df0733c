/** State of the composer: the text buffer, attached images, history browsing and the suggestion list. */
import {
  deleteBackward,
  deleteForward,
  deleteToLineEdge,
  deleteWordBackward,
  EMPTY_BUFFER,
  insertText,
  moveHorizontal,
  moveToLineEdge,
  moveVertical,
  type TextBuffer,
} from './buffer.js';
import type { ImageAttachment } from './image-attachment.js';

/** A line under the composer: what happened to a paste, why an image was not attached. */
export interface ComposerNotice {
  readonly text: string;
  readonly severity: 'info' | 'warning';
}

/** Composer state. */
export interface ComposerState extends TextBuffer {
  /** Position in the history while browsing it, null while editing. */
  readonly historyIndex: number | null;
  /** The text being edited before browsing the history (restored when coming back down). */
  readonly draft: string;
  /** Highlighted suggestion. */
  readonly selected: number;
  /** Suggestions hidden with Esc (until the text changes). */
  readonly dismissed: boolean;
  /** Images sent with the prompt, in the order they were attached. */
  readonly attachments: readonly ImageAttachment[];
  /** Shown until the text changes or the prompt is sent. */
  readonly notice?: ComposerNotice;
}

/** Composer actions. */
export type ComposerAction =
  | { readonly type: 'insert'; readonly text: string }
  | { readonly type: 'edit'; readonly edit: 'backspace' | 'delete' | 'deleteWord' | 'killStart' | 'killEnd' }
  | { readonly type: 'move'; readonly move: 'left' | 'right' | 'up' | 'down' | 'lineStart' | 'lineEnd' }
  | { readonly type: 'history'; readonly direction: -1 | 1; readonly history: readonly string[] }
  | { readonly type: 'select'; readonly delta: number; readonly count: number }
  | { readonly type: 'replace'; readonly from: number; readonly insert: string }
  | { readonly type: 'dismiss' }
  | { readonly type: 'attach'; readonly images: readonly ImageAttachment[] }
  /** Removes the last attached image. */
  | { readonly type: 'detach' }
  | { readonly type: 'notice'; readonly notice: ComposerNotice }
  | { readonly type: 'clear' };

/** The initial (empty) state. */
export const INITIAL_COMPOSER: ComposerState = {
  ...EMPTY_BUFFER,
  historyIndex: null,
  draft: '',
  selected: 0,
  dismissed: false,
  attachments: [],
};

function withBuffer(state: ComposerState, buffer: TextBuffer): ComposerState {
  const changed = buffer.text !== state.text;
  return {
    ...state,
    text: buffer.text,
    cursor: buffer.cursor,
    historyIndex: changed ? null : state.historyIndex,
    selected: changed ? 0 : state.selected,
    dismissed: changed ? false : state.dismissed,
    notice: changed ? undefined : state.notice,
  };
}

const EDITS = {
  backspace: deleteBackward,
  delete: deleteForward,
  deleteWord: deleteWordBackward,
  killStart: (b: TextBuffer) => deleteToLineEdge(b, 'start'),
  killEnd: (b: TextBuffer) => deleteToLineEdge(b, 'end'),
} as const;

const MOVES = {
  left: (b: TextBuffer) => moveHorizontal(b, -1),
  right: (b: TextBuffer) => moveHorizontal(b, 1),
  up: (b: TextBuffer) => moveVertical(b, -1),
  down: (b: TextBuffer) => moveVertical(b, 1),
  lineStart: (b: TextBuffer) => moveToLineEdge(b, 'start'),
  lineEnd: (b: TextBuffer) => moveToLineEdge(b, 'end'),
} as const;

function browseHistory(state: ComposerState, direction: -1 | 1, history: readonly string[]): ComposerState {
  if (history.length === 0) return state;
  if (direction < 0) {
    const index = state.historyIndex === null ? history.length - 1 : Math.max(0, state.historyIndex - 1);
    const text = history[index] ?? '';
    const draft = state.historyIndex === null ? state.text : state.draft;
    return { ...state, text, cursor: text.length, historyIndex: index, draft, selected: 0, dismissed: true };
  }
  if (state.historyIndex === null) return state;
  const index = state.historyIndex + 1;
  if (index >= history.length) {
    return {
      ...state,
      text: state.draft,
      cursor: state.draft.length,
      historyIndex: null,
      selected: 0,
      dismissed: false,
    };
  }
  const text = history[index] ?? '';
  return { ...state, text, cursor: text.length, historyIndex: index, selected: 0, dismissed: true };
}

/** The composer reducer. */
export function composerReducer(state: ComposerState, action: ComposerAction): ComposerState {
  switch (action.type) {
    case 'insert':
      return withBuffer(state, insertText(state, action.text));
    case 'edit':
      return withBuffer(state, EDITS[action.edit](state));
    case 'move':
      return withBuffer(state, MOVES[action.move](state));
    case 'history':
      return browseHistory(state, action.direction, action.history);
    case 'select':
      return action.count === 0
        ? state
        : { ...state, selected: (state.selected + action.delta + action.count) % action.count };
    case 'replace': {
      const text = state.text.slice(0, action.from) + action.insert + state.text.slice(state.cursor);
      return withBuffer(state, { text, cursor: action.from + action.insert.length });
    }
    case 'dismiss':
      return { ...state, dismissed: true };
    case 'attach':
      return { ...state, attachments: [...state.attachments, ...action.images], notice: undefined };
    case 'detach':
      return { ...state, attachments: state.attachments.slice(0, -1) };
    case 'notice':
      return { ...state, notice: action.notice };
    case 'clear':
      return INITIAL_COMPOSER;
  }
}

/**
 * Key specifications as users write them in settings (`ctrl+c`, `meta+return`, `shift+tab`, `?`,
 * `A`) and matching them against Ink's key events.
 */
import type { Key } from 'ink';

const NAMED_KEYS = [
  'return',
  'escape',
  'tab',
  'backspace',
  'delete',
  'up',
  'down',
  'left',
  'right',
  'pageup',
  'pagedown',
  'home',
  'end',
  'space',
] as const;

/** A key without modifiers that has a name rather than a character. */
export type NamedKey = (typeof NAMED_KEYS)[number];

const ALIASES: Readonly<Record<string, NamedKey>> = { enter: 'return', esc: 'escape', del: 'delete' };

/** A parsed key specification. */
export interface ParsedKey {
  readonly ctrl: boolean;
  readonly meta: boolean;
  readonly shift: boolean;
  /** A named key, or undefined when `char` is set. */
  readonly name?: NamedKey;
  /** A single printable character (case-sensitive). */
  readonly char?: string;
}

const cache = new Map<string, ParsedKey | undefined>();

/**
 * Parses a key specification; undefined when it is not valid.
 *
 * @example
 * parseKeySpec('ctrl+o'); // { ctrl: true, meta: false, shift: false, char: 'o' }
 */
export function parseKeySpec(spec: string): ParsedKey | undefined {
  if (cache.has(spec)) return cache.get(spec);
  const parsed = parseUncached(spec);
  cache.set(spec, parsed);
  return parsed;
}

function parseUncached(spec: string): ParsedKey | undefined {
  // A lone '+' is a key of its own; otherwise '+' separates modifiers.
  const parts =
    spec === '+' ? ['+'] : spec.endsWith('++') ? [...spec.slice(0, -2).split('+'), '+'] : spec.split('+');
  const last = parts.pop();
  if (last === undefined || last === '') return undefined;
  let ctrl = false;
  let meta = false;
  let shift = false;
  for (const modifier of parts) {
    const m = modifier.toLowerCase();
    if (m === 'ctrl' || m === 'control') ctrl = true;
    else if (m === 'meta' || m === 'alt' || m === 'option') meta = true;
    else if (m === 'shift') shift = true;
    else return undefined;
  }
  const lower = last.toLowerCase();
  const name = ALIASES[lower] ?? (NAMED_KEYS as readonly string[]).find((n) => n === lower);
  if (name !== undefined) return { ctrl, meta, shift, name: name as NamedKey };
  if ([...last].length !== 1) return undefined;
  const code = last.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return undefined;
  // shift+a means 'A'; ctrl combinations are case-insensitive in terminals.
  if (ctrl) return { ctrl, meta, shift: false, char: lower };
  return { ctrl, meta, shift: false, char: shift ? last.toUpperCase() : last };
}

function namedKeyPressed(name: NamedKey, input: string, key: Key): boolean {
  switch (name) {
    case 'return':
      return key.return;
    case 'escape':
      return key.escape;
    case 'tab':
      return key.tab;
    // Terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`.
    case 'backspace':
      return key.backspace || key.delete;
    case 'delete':
      return key.delete;
    case 'up':
      return key.upArrow;
    case 'down':
      return key.downArrow;
    case 'left':
      return key.leftArrow;
    case 'right':
      return key.rightArrow;
    case 'pageup':
      return key.pageUp;
    case 'pagedown':
      return key.pageDown;
    case 'home':
      return key.home;
    case 'end':
      return key.end;
    case 'space':
      return input === ' ';
  }
}

/**
 * Whether an Ink key event (`useInput`'s arguments) is the key `spec` describes.
 *
 * @example
 * useInput((input, key) => { if (matchesKey('ctrl+o', input, key)) toggle(); });
 */
export function matchesKey(spec: string, input: string, key: Key): boolean {
  const parsed = parseKeySpec(spec);
  if (!parsed) return false;
  if (parsed.ctrl !== key.ctrl) return false;
  if (parsed.name !== undefined) {
    // Ink may flag Escape itself as meta; only the named key matters there.
    if (parsed.name !== 'escape' && parsed.meta !== key.meta) return false;
    if (parsed.name !== 'space' && parsed.shift !== key.shift) return false;
    return namedKeyPressed(parsed.name, input, key);
  }
  if (parsed.meta !== key.meta) return false;
  return parsed.ctrl ? input.toLowerCase() === parsed.char : input === parsed.char;
}

const NAMED_LABELS: Readonly<Record<NamedKey, string>> = {
  return: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
  space: 'Space',
};

/** A key specification as shown to users: `Ctrl+O`, `Alt+Enter`, `Shift+Tab`, `↑`, `?`. */
export function formatKeySpec(spec: string): string {
  const parsed = parseKeySpec(spec);
  if (!parsed) return spec;
  const parts: string[] = [];
  if (parsed.ctrl) parts.push('Ctrl');
  if (parsed.meta) parts.push('Alt');
  if (parsed.shift) parts.push('Shift');
  if (parsed.name !== undefined) parts.push(NAMED_LABELS[parsed.name]);
  else if (parsed.char !== undefined) parts.push(parsed.ctrl ? parsed.char.toUpperCase() : parsed.char);
  return parts.join('+');
}

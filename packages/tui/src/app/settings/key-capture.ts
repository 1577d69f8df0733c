/** Turning a key press into a key specification (for rebinding keys in the settings screen). */
import type { Key } from 'ink';

const NAMED: readonly [keyof Key, string][] = [
  ['return', 'return'],
  ['escape', 'escape'],
  ['tab', 'tab'],
  ['upArrow', 'up'],
  ['downArrow', 'down'],
  ['leftArrow', 'left'],
  ['rightArrow', 'right'],
  ['pageUp', 'pageup'],
  ['pageDown', 'pagedown'],
  ['home', 'home'],
  ['end', 'end'],
  ['delete', 'backspace'],
  ['backspace', 'backspace'],
];

/**
 * The specification of a key press as Ink reports it (`ctrl+o`, `shift+tab`, `meta+return`, `?`),
 * or undefined for input that is not a single key (pasted text).
 *
 * @example
 * keySpecFromInput('o', { ...noKey, ctrl: true }); // 'ctrl+o'
 */
export function keySpecFromInput(input: string, key: Key): string | undefined {
  const named = NAMED.find(([flag]) => key[flag] === true)?.[1];
  const modifiers: string[] = [];
  if (key.ctrl) modifiers.push('ctrl');
  if (key.meta && !key.escape) modifiers.push('meta');
  if (named) {
    if (key.shift) modifiers.push('shift');
    return [...modifiers, named].join('+');
  }
  if (input === ' ') return [...modifiers, 'space'].join('+');
  const chars = [...input];
  if (chars.length !== 1) return undefined;
  const char = chars[0] as string;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return undefined;
  return [...modifiers, key.ctrl ? char.toLowerCase() : char].join('+');
}

import { createContext, useCallback, useContext, type ReactNode } from 'react';
import type { Key } from 'ink';
import { DEFAULT_KEY_BINDINGS, keyLabel, type KeyAction, type KeyBindings } from './key-bindings.js';
import { matchesKey } from './key-spec.js';

const KeyBindingsContext = createContext<KeyBindings>(DEFAULT_KEY_BINDINGS);

/** Props of {@link KeyBindingsProvider}. */
export interface KeyBindingsProviderProps {
  readonly bindings: KeyBindings;
  readonly children?: ReactNode;
}

/**
 * Supplies the key map (defaults merged with user overrides, see `resolveKeyBindings`).
 * Without a provider components use {@link DEFAULT_KEY_BINDINGS}.
 */
export function KeyBindingsProvider({ bindings, children }: KeyBindingsProviderProps) {
  return <KeyBindingsContext.Provider value={bindings}>{children}</KeyBindingsContext.Provider>;
}

/** The current key map. */
export function useKeyBindings(): KeyBindings {
  return useContext(KeyBindingsContext);
}

/** Tests an Ink key event against an action of the current key map. */
export type ActionMatcher = (action: KeyAction, input: string, key: Key) => boolean;

/**
 * A matcher bound to the current key map.
 *
 * @example
 * const is = useActionMatcher();
 * useInput((input, key) => { if (is('review.acceptAll', input, key)) acceptAll(); });
 */
export function useActionMatcher(): ActionMatcher {
  const bindings = useKeyBindings();
  return useCallback(
    (action, input, key) => bindings[action].some((spec) => matchesKey(spec, input, key)),
    [bindings],
  );
}

/** The first key bound to an action, formatted for display ('' when unbound). */
export function useKeyLabel(action: KeyAction): string {
  return keyLabel(useKeyBindings(), action);
}

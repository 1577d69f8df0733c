import { describe, expect, it, vi } from 'vitest';
import { Text, useInput } from 'ink';
import { KEYS, renderInk } from '../test-support/ink.js';
import { inkKey } from '../test-support/key.js';
import { DEFAULT_KEY_BINDINGS, findKeyConflicts, KEY_ACTIONS, resolveKeyBindings } from './key-bindings.js';
import { formatKeySpec, matchesKey, parseKeySpec } from './key-spec.js';
import { KeyBindingsProvider, useActionMatcher } from './KeyBindingsContext.js';
import type { KeyAction } from './key-bindings.js';

const key = inkKey;

describe('key specs', () => {
  it('parses modifiers, names, aliases and characters', () => {
    expect(parseKeySpec('ctrl+O')).toEqual({ ctrl: true, meta: false, shift: false, char: 'o' });
    expect(parseKeySpec('alt+enter')).toEqual({ ctrl: false, meta: true, shift: false, name: 'return' });
    expect(parseKeySpec('shift+a')).toEqual({ ctrl: false, meta: false, shift: false, char: 'A' });
    expect(parseKeySpec('+')).toEqual({ ctrl: false, meta: false, shift: false, char: '+' });
    expect(parseKeySpec('ctrl++')).toEqual({ ctrl: true, meta: false, shift: false, char: '+' });
    expect(parseKeySpec('hyper+x')).toBeUndefined();
    expect(parseKeySpec('ab')).toBeUndefined();
    expect(parseKeySpec('')).toBeUndefined();
  });

  it('matches Ink key events', () => {
    expect(matchesKey('ctrl+c', 'c', key({ ctrl: true }))).toBe(true);
    expect(matchesKey('ctrl+c', 'c', key())).toBe(false);
    expect(matchesKey('A', 'A', key({ shift: true }))).toBe(true);
    expect(matchesKey('a', 'A', key({ shift: true }))).toBe(false);
    expect(matchesKey('shift+tab', '', key({ tab: true, shift: true }))).toBe(true);
    expect(matchesKey('tab', '', key({ tab: true, shift: true }))).toBe(false);
    expect(matchesKey('escape', '', key({ escape: true, meta: true }))).toBe(true);
    expect(matchesKey('meta+return', '\r', key({ return: true, meta: true }))).toBe(true);
    expect(matchesKey('return', '\r', key({ return: true, meta: true }))).toBe(false);
    expect(matchesKey('backspace', '', key({ delete: true }))).toBe(true);
  });

  it('formats keys for people', () => {
    expect(DEFAULT_KEY_BINDINGS['composer.newline'].map(formatKeySpec)).toEqual(['Alt+Enter', 'Ctrl+J']);
    expect(formatKeySpec('up')).toBe('↑');
  });
});

describe('key bindings', () => {
  it('has no conflicts by default', () => {
    expect(findKeyConflicts(DEFAULT_KEY_BINDINGS)).toEqual([]);
  });

  it('binds the clipboard image to Ctrl+V, which nothing else live in the composer uses', () => {
    expect(DEFAULT_KEY_BINDINGS['composer.pasteImage']).toEqual(['ctrl+v']);
    expect(matchesKey('ctrl+v', 'v', key({ ctrl: true }))).toBe(true);
    // The composer's fixed editing keys (Ctrl+A/E/D/W/U/K/J) and every app or composer action.
    const live = new Set(['ctrl+a', 'ctrl+e', 'ctrl+d', 'ctrl+w', 'ctrl+u', 'ctrl+k', 'ctrl+j']);
    for (const { action, scope } of KEY_ACTIONS) {
      if ((scope === 'app' || scope === 'composer') && action !== 'composer.pasteImage')
        for (const spec of DEFAULT_KEY_BINDINGS[action]) live.add(formatKeySpec(spec).toLowerCase());
    }
    expect(live.has('ctrl+v')).toBe(false);
  });

  it('applies valid overrides and reports invalid ones', () => {
    const { bindings, problems } = resolveKeyBindings({
      'review.acceptAll': 'ctrl+a',
      'app.help': ['f13'],
      'no.such': 'x',
    });
    expect(bindings['review.acceptAll']).toEqual(['ctrl+a']);
    expect(bindings['app.help']).toEqual(DEFAULT_KEY_BINDINGS['app.help']);
    expect(problems).toEqual(['app.help: invalid key "f13"', 'unknown action "no.such"']);
  });

  it('finds keys bound twice in one scope', () => {
    const { bindings } = resolveKeyBindings({ 'review.accept': 'a', 'review.acceptAll': 'a' });
    expect(findKeyConflicts(bindings)).toEqual([
      { key: 'a', actions: ['review.accept', 'review.acceptAll'] },
    ]);
  });

  it('drives components through the provider', async () => {
    const seen = vi.fn<(action: KeyAction) => void>();
    function Probe() {
      const is = useActionMatcher();
      useInput((input, k) => {
        if (is('app.toggleExpand', input, k)) seen('app.toggleExpand');
      });
      return <Text>probe</Text>;
    }
    const { bindings } = resolveKeyBindings({ 'app.toggleExpand': 'x' });
    const r = renderInk(
      <KeyBindingsProvider bindings={bindings}>
        <Probe />
      </KeyBindingsProvider>,
    );
    await r.press(KEYS.ctrl('o'));
    expect(seen).not.toHaveBeenCalled();
    await r.press('x');
    expect(seen).toHaveBeenCalledTimes(1);
  });
});

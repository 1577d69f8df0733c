/**
 * The key map: every action the UI binds, its default keys and description. Users override keys
 * per action in settings; components ask "is this event action X?" instead of testing keys.
 */
import { formatKeySpec, parseKeySpec } from './key-spec.js';

/** Where an action applies; `app` actions are live everywhere. */
export type KeyScope = 'app' | 'composer' | 'permission' | 'review' | 'form' | 'browser' | 'help';

/** Definition of one bindable action. */
export interface KeyActionDefinition {
  readonly action: string;
  readonly scope: KeyScope;
  readonly description: string;
  readonly keys: readonly string[];
}

/** Every bindable action with its defaults, in the order the help screen lists them. */
export const KEY_ACTIONS = [
  { action: 'app.help', scope: 'app', description: 'Show this key map', keys: ['?'] },
  { action: 'app.cancel', scope: 'app', description: 'Cancel the running turn', keys: ['escape', 'ctrl+c'] },
  {
    action: 'app.cancelCall',
    scope: 'app',
    description:
      'Stop the running tool call (else the terminal) that can be stopped alone, without ending the turn (ACP v2 agents)',
    keys: ['ctrl+g'],
  },
  { action: 'app.toggleExpand', scope: 'app', description: 'Expand or fold long output', keys: ['ctrl+o'] },
  { action: 'app.toggleThoughts', scope: 'app', description: 'Show or hide thoughts', keys: ['ctrl+t'] },
  { action: 'app.togglePlan', scope: 'app', description: 'Show or hide the plan', keys: ['ctrl+p'] },
  { action: 'app.menu', scope: 'app', description: 'Open the menu of every action', keys: ['ctrl+x'] },
  { action: 'app.newTab', scope: 'app', description: 'New tab (choose an agent)', keys: ['ctrl+n'] },
  { action: 'app.nextTab', scope: 'app', description: 'Next tab', keys: ['ctrl+right'] },
  { action: 'app.previousTab', scope: 'app', description: 'Previous tab', keys: ['ctrl+left'] },
  { action: 'app.sessions', scope: 'app', description: 'Sessions: reopen, load, delete', keys: ['ctrl+s'] },
  {
    action: 'app.cycleMode',
    scope: 'app',
    description: "Switch to the agent's next mode",
    keys: ['shift+tab'],
  },
  {
    action: 'app.restart',
    scope: 'app',
    description: 'Restart the agent and reattach the session',
    keys: ['ctrl+r'],
  },
  {
    action: 'app.redraw',
    scope: 'app',
    description: 'Clear the screen and print the session again',
    keys: ['ctrl+l'],
  },
  {
    action: 'app.browse',
    scope: 'app',
    description: 'Browse the transcript: search, copy, open in the editor',
    keys: ['ctrl+f'],
  },
  { action: 'app.quit', scope: 'app', description: 'Quit (also Ctrl+C twice while idle)', keys: ['ctrl+q'] },
  {
    action: 'composer.submit',
    scope: 'composer',
    description: 'Send the prompt (queued while a turn runs)',
    keys: ['return'],
  },
  {
    action: 'composer.newline',
    scope: 'composer',
    description: 'Insert a new line',
    keys: ['meta+return', 'ctrl+j'],
  },
  {
    action: 'composer.complete',
    scope: 'composer',
    description: 'Complete the command or file',
    keys: ['tab'],
  },
  {
    action: 'composer.previous',
    scope: 'composer',
    description: 'Previous prompt / suggestion',
    keys: ['up'],
  },
  { action: 'composer.next', scope: 'composer', description: 'Next prompt / suggestion', keys: ['down'] },
  { action: 'composer.dismiss', scope: 'composer', description: 'Close suggestions', keys: ['escape'] },
  {
    action: 'composer.pasteImage',
    scope: 'composer',
    description: 'Attach the image in the clipboard (Backspace at the start removes one)',
    keys: ['ctrl+v'],
  },
  { action: 'permission.allowOnce', scope: 'permission', description: 'Allow once', keys: ['y'] },
  { action: 'permission.allowAlways', scope: 'permission', description: 'Always allow', keys: ['a'] },
  { action: 'permission.rejectOnce', scope: 'permission', description: 'Reject once', keys: ['n'] },
  { action: 'permission.rejectAlways', scope: 'permission', description: 'Always reject', keys: ['N'] },
  {
    action: 'permission.remember',
    scope: 'permission',
    description: 'Remember the answer as a rule: once, session, project, everywhere',
    keys: ['r'],
  },
  {
    action: 'permission.reviewHunks',
    scope: 'permission',
    description: 'Review the changes hunk by hunk; Enter then allows the hunks you accepted',
    keys: ['h'],
  },
  {
    action: 'permission.previous',
    scope: 'permission',
    description: 'Focus the previous option',
    keys: ['up', 'k'],
  },
  {
    action: 'permission.next',
    scope: 'permission',
    description: 'Focus the next option',
    keys: ['down', 'j'],
  },
  {
    action: 'permission.confirm',
    scope: 'permission',
    description: 'Answer with the focused option',
    keys: ['return'],
  },
  { action: 'review.accept', scope: 'review', description: 'Accept this hunk', keys: ['y'] },
  { action: 'review.reject', scope: 'review', description: 'Reject this hunk', keys: ['n'] },
  { action: 'review.acceptAll', scope: 'review', description: 'Accept all hunks', keys: ['A'] },
  { action: 'review.rejectAll', scope: 'review', description: 'Reject all hunks', keys: ['R'] },
  { action: 'review.previous', scope: 'review', description: 'Previous hunk', keys: ['up', 'k'] },
  { action: 'review.next', scope: 'review', description: 'Next hunk', keys: ['down', 'j'] },
  { action: 'review.submit', scope: 'review', description: 'Write the accepted hunks', keys: ['return'] },
  { action: 'review.cancel', scope: 'review', description: 'Reject the whole write', keys: ['escape'] },
  { action: 'form.next', scope: 'form', description: 'Next field', keys: ['tab', 'down'] },
  { action: 'form.previous', scope: 'form', description: 'Previous field', keys: ['shift+tab', 'up'] },
  {
    action: 'form.toggle',
    scope: 'form',
    description: 'Tick a checkbox or the focused choice (←→ pick a choice)',
    keys: ['space'],
  },
  {
    action: 'form.confirm',
    scope: 'form',
    description: 'Next field; on the last field submit; on a button press it',
    keys: ['return'],
  },
  { action: 'form.submit', scope: 'form', description: 'Submit the form', keys: ['ctrl+s'] },
  { action: 'form.decline', scope: 'form', description: 'Decline to answer', keys: ['escape'] },
  {
    action: 'form.cancel',
    scope: 'form',
    description: 'Cancel: dismiss the form without an answer',
    keys: ['ctrl+c'],
  },
  {
    action: 'browser.search',
    scope: 'browser',
    description: 'Search (Enter done, ↑↓ match)',
    keys: ['/', 'ctrl+f'],
  },
  { action: 'browser.nextMatch', scope: 'browser', description: 'Next match', keys: ['n'] },
  { action: 'browser.previousMatch', scope: 'browser', description: 'Previous match', keys: ['N'] },
  {
    action: 'browser.previous',
    scope: 'browser',
    description: 'Previous part, or scroll up (PgUp or b a page, g the top)',
    keys: ['up', 'k'],
  },
  {
    action: 'browser.next',
    scope: 'browser',
    description: 'Next part, or scroll down (PgDn or Space a page, G the end)',
    keys: ['down', 'j'],
  },
  {
    action: 'browser.copy',
    scope: 'browser',
    description: 'Copy the message, code block or output to the clipboard',
    keys: ['y', 'c'],
  },
  {
    action: 'browser.open',
    scope: 'browser',
    description: "Open the tool call's file in $EDITOR at its line",
    keys: ['o', 'return'],
  },
  {
    action: 'browser.close',
    scope: 'browser',
    description: 'Close the transcript browser',
    keys: ['escape', 'q'],
  },
  { action: 'help.close', scope: 'help', description: 'Close the key map', keys: ['escape', 'q', '?'] },
] as const satisfies readonly KeyActionDefinition[];

/** Name of a bindable action (`composer.submit`, `review.acceptAll`…). */
export type KeyAction = (typeof KEY_ACTIONS)[number]['action'];

/** Keys bound to every action. */
export type KeyBindings = Readonly<Record<KeyAction, readonly string[]>>;

/** The default key map. */
export const DEFAULT_KEY_BINDINGS: KeyBindings = Object.freeze(
  Object.fromEntries(
    KEY_ACTIONS.map((definition): [string, readonly string[]] => [definition.action, definition.keys]),
  ),
) as KeyBindings;

const ACTION_SET: ReadonlySet<string> = new Set(KEY_ACTIONS.map((d) => d.action));

/** True for a known action name. */
export function isKeyAction(name: string): name is KeyAction {
  return ACTION_SET.has(name);
}

/** The result of {@link resolveKeyBindings}. */
export interface ResolvedKeyBindings {
  readonly bindings: KeyBindings;
  /** Overrides that were ignored, with the reason (unknown action, invalid key). */
  readonly problems: readonly string[];
}

/**
 * Applies user overrides (action → key or keys) to the defaults. An override replaces the
 * action's keys; an empty list unbinds it. Invalid entries are reported and ignored.
 *
 * @example
 * resolveKeyBindings({ 'review.acceptAll': ['ctrl+a'], 'app.help': 'f1' });
 */
export function resolveKeyBindings(
  overrides: Readonly<Record<string, string | readonly string[]>>,
  defaults: KeyBindings = DEFAULT_KEY_BINDINGS,
): ResolvedKeyBindings {
  const bindings: Record<string, readonly string[]> = { ...defaults };
  const problems: string[] = [];
  for (const [action, value] of Object.entries(overrides)) {
    if (!isKeyAction(action)) {
      problems.push(`unknown action "${action}"`);
      continue;
    }
    const keys = typeof value === 'string' ? [value] : value;
    const invalid = keys.filter((k) => parseKeySpec(k) === undefined);
    if (invalid.length > 0) {
      problems.push(`${action}: invalid key ${invalid.map((k) => `"${k}"`).join(', ')}`);
      continue;
    }
    bindings[action] = [...keys];
  }
  return { bindings: bindings as KeyBindings, problems };
}

/**
 * The first key bound to `action`, formatted for display ('' when none is): how hints name a key.
 *
 * @example
 * keyLabel(DEFAULT_KEY_BINDINGS, 'app.menu'); // 'Ctrl+X'
 */
export function keyLabel(bindings: KeyBindings, action: KeyAction): string {
  const first = bindings[action][0];
  return first === undefined ? '' : formatKeySpec(first);
}

/** A key bound to more than one action of the same scope. */
export interface KeyConflict {
  readonly key: string;
  readonly actions: readonly KeyAction[];
}

/**
 * Finds keys that would trigger two actions of one scope. A scoped action shadows an `app`
 * action on the same key while its component has focus (Esc closes the palette before it
 * cancels the turn), so that is not a conflict.
 */
export function findKeyConflicts(bindings: KeyBindings): KeyConflict[] {
  const conflicts: KeyConflict[] = [];
  for (const scope of new Set<KeyScope>(KEY_ACTIONS.map((d) => d.scope))) {
    const byKey = new Map<string, KeyAction[]>();
    for (const { action, scope: s } of KEY_ACTIONS) {
      if (s !== scope) continue;
      for (const key of new Set(bindings[action].map(formatKeySpec))) {
        byKey.set(key, [...(byKey.get(key) ?? []), action]);
      }
    }
    for (const [key, actions] of byKey) if (actions.length > 1) conflicts.push({ key, actions });
  }
  return conflicts;
}

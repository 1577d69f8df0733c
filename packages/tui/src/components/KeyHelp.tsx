import { memo } from 'react';
import { Box, Text, useInput } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { useActionMatcher, useKeyBindings } from '../keys/KeyBindingsContext.js';
import { KEY_ACTIONS, type KeyBindings, type KeyScope } from '../keys/key-bindings.js';
import { formatKeySpec } from '../keys/key-spec.js';

/** Props of {@link KeyHelp}. */
export interface KeyHelpProps {
  /** The key map to show; the one from context by default. */
  readonly bindings?: KeyBindings;
  /** Called when a `help.close` key is pressed. */
  readonly onClose?: () => void;
  readonly isActive?: boolean;
}

const SCOPE_TITLES: Readonly<Record<KeyScope, string>> = {
  app: 'Everywhere',
  composer: 'Composer',
  permission: 'Permission prompt',
  review: 'Diff review',
  form: 'Form (input requested by the agent)',
  browser: 'Transcript browser',
  help: 'This screen',
};

/** Editing keys of the composer: fixed, like in a shell. */
export const EDITING_KEYS: readonly (readonly [string, string])[] = [
  ['← →  Home End', 'Move the cursor'],
  ['Ctrl+A  Ctrl+E', 'Start / end of the line'],
  ['Ctrl+W  Alt+Backspace', 'Delete the word before the cursor'],
  ['Ctrl+U  Ctrl+K', 'Delete to the start / end of the line'],
  ['Ctrl+D', 'Delete the character under the cursor'],
  ['\\ then Enter', 'Continue on a new line'],
];

/**
 * The key map screen: every action with its keys (as configured) and what it does, grouped by
 * where it applies, plus the composer's fixed editing keys.
 */
export const KeyHelp = memo(function KeyHelp({ bindings: given, onClose, isActive = true }: KeyHelpProps) {
  const theme = useTheme();
  const fromContext = useKeyBindings();
  const bindings = given ?? fromContext;
  const is = useActionMatcher();
  useInput(
    (input, key) => {
      if (onClose && is('help.close', input, key)) onClose();
    },
    { isActive: isActive && onClose !== undefined },
  );
  const rows = (scope: KeyScope): [string, string][] =>
    KEY_ACTIONS.filter((d) => d.scope === scope).map((d) => {
      const keys = bindings[d.action];
      return [keys.length === 0 ? '(unbound)' : keys.map(formatKeySpec).join('  '), d.description];
    });
  const sections: [string, readonly (readonly [string, string])[]][] = [
    ...(Object.keys(SCOPE_TITLES) as KeyScope[]).map((s): [string, [string, string][]] => [
      SCOPE_TITLES[s],
      rows(s),
    ]),
    ['Composer editing', EDITING_KEYS],
  ];
  const width = Math.max(...sections.flatMap(([, r]) => r.map(([k]) => k.length))) + 2;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.border} paddingX={1}>
      <Text bold color={theme.text.accent}>
        Keys
      </Text>
      {sections.map(([title, entries]) => (
        <Box key={title} flexDirection="column" marginTop={1}>
          <Text bold>{title}</Text>
          {entries.map(([keys, description]) => (
            <Box key={`${title}:${description}`} flexDirection="row">
              <Box width={width} flexShrink={0}>
                <Text color={theme.text.accent}>{keys}</Text>
              </Box>
              <Text>{description}</Text>
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
});

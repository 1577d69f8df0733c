import { memo, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import type { WriteReviewMode } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { useKeyBindings } from '../../keys/KeyBindingsContext.js';
import { KEY_ACTIONS, type KeyAction } from '../../keys/key-bindings.js';
import { formatKeySpec } from '../../keys/key-spec.js';
import { THEMES, type ThemeName } from '../../theme/theme.js';
import { sanitizeInline } from '../../sanitize/sanitize-text.js';
import { settingsPath } from '../settings/settings-file.js';
import { keySpecFromInput } from '../settings/key-capture.js';
import { mcpTransport, type TuiSettings } from '../settings/settings.js';
import { useAppState, useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link SettingsScreen}. */
export interface SettingsScreenProps {
  readonly maxVisible: number;
  readonly isActive?: boolean;
}

const THEME_NAMES = Object.keys(THEMES) as ThemeName[];

/** The MCP servers of the settings as list lines: name, transport, scope, variable names only. */
export function mcpLines(settings: TuiSettings): SelectItem[] {
  const scoped = [
    ...settings.mcpServers.map((server) => ({ server, scope: 'every agent' })),
    ...Object.entries(settings.agentMcpServers).flatMap(([agent, servers]) =>
      servers.map((server) => ({ server, scope: agent })),
    ),
  ];
  return scoped.map(({ server, scope }) => {
    const transport = mcpTransport(server);
    // Values of env variables and headers are secrets: only their names are shown.
    const names =
      'env' in server
        ? server.env.map((v) => v.name)
        : 'headers' in server
          ? server.headers.map((h) => h.name)
          : [];
    const target = 'command' in server ? server.command : 'url' in server ? server.url : '';
    return {
      key: `mcp:${scope}:${server.name}`,
      label: `MCP ${server.name}`,
      tag: { text: `${transport} · ${scope}`, tone: 'info' },
      detail: `${target}${names.length > 0 ? ` · ${transport === 'stdio' ? 'env' : 'headers'}: ${names.join(', ')}` : ''}`,
      disabled: true,
    };
  });
}

/** Rebinding keys: Enter, then the new key; Backspace restores the default. */
function KeysEditor({ maxVisible, onBack }: { maxVisible: number; onBack: () => void }) {
  const controller = useController();
  const theme = useTheme();
  const bindings = useKeyBindings();
  const [capturing, setCapturing] = useState<KeyAction | undefined>();
  useInput(
    (input, key) => {
      const spec = keySpecFromInput(input, key);
      if (capturing && spec) {
        setCapturing(undefined);
        if (spec !== 'escape') void controller.updateSettings({ keys: { [capturing]: [spec] } });
      }
    },
    { isActive: capturing !== undefined },
  );
  const items: SelectItem[] = KEY_ACTIONS.map((definition) => ({
    key: definition.action,
    label: `${definition.action.padEnd(24)} ${bindings[definition.action].map(formatKeySpec).join('  ') || '(unbound)'}`,
    detail: definition.description,
  }));
  return (
    <SelectList
      title="Key bindings"
      items={items}
      maxVisible={maxVisible}
      isActive={capturing === undefined}
      hint="Enter rebind · Backspace default · Esc back"
      onSelect={(item) => setCapturing(item.key as KeyAction)}
      onKey={(_input, key, item) => {
        if ((key.backspace || key.delete) && item) {
          void controller.updateSettings({ keys: { [item.key]: null } });
          return true;
        }
        return false;
      }}
      onCancel={onBack}
    >
      {capturing && (
        <Text color={theme.status.warning}>{`Press the new key for ${capturing} (Esc cancels)`}</Text>
      )}
    </SelectList>
  );
}

/** The write review modes in the order Enter cycles them. */
const REVIEW_MODES: readonly WriteReviewMode[] = ['changed', 'always', 'never'];

const REVIEW_DETAILS: Readonly<Record<WriteReviewMode, string>> = {
  changed: 'unless allowed with its diff in the permission question',
  always: 'every write, also after allowing its diff',
  never: 'writes as allowed in the permission question',
};

/**
 * Settings from `tui.json` in the client's config dir: theme, write review, thoughts and key
 * bindings are changed here; MCP servers (global and per agent) are listed with where they apply.
 */
export const SettingsScreen = memo(function SettingsScreen({
  maxVisible,
  isActive = true,
}: SettingsScreenProps) {
  const controller = useController();
  const theme = useTheme();
  const { settings, settingsProblems } = useAppState();
  const [keys, setKeys] = useState(false);
  if (keys) return <KeysEditor maxVisible={maxVisible} onBack={() => setKeys(false)} />;
  const onOff = (value: boolean): string => (value ? 'on' : 'off');
  const items: SelectItem[] = [
    { key: 'theme', hotkey: 't', label: `Theme: ${settings.theme}`, detail: THEME_NAMES.join(' / ') },
    {
      key: 'review',
      hotkey: 'r',
      label: `Review agent writes hunk by hunk: ${settings.reviewWrites}`,
      detail: REVIEW_DETAILS[settings.reviewWrites],
    },
    { key: 'thoughts', hotkey: 'h', label: `Show thoughts in full: ${onOff(settings.showThoughts)}` },
    {
      key: 'clipboard',
      hotkey: 'c',
      label: `Copy with: ${settings.clipboard === 'osc52' ? 'OSC 52 (the terminal)' : "the system's clipboard tool"}`,
      detail:
        settings.clipboard === 'osc52'
          ? 'works over SSH; the terminal must allow it'
          : 'wl-copy, xclip, xsel, pbcopy or clip.exe',
    },
    { key: 'keys', hotkey: 'k', label: 'Key bindings…' },
    {
      key: 'stall',
      label: `Stall indicator after ${settings.stallSeconds} s · ${settings.historyItems} items printed when a session is shown`,
      disabled: true,
    },
    ...mcpLines(settings),
  ];
  return (
    <SelectList
      title="Settings"
      items={items}
      isActive={isActive}
      maxVisible={maxVisible}
      hint="Enter change · Esc back"
      onSelect={(item) => {
        if (item.key === 'theme') {
          const next = THEME_NAMES[(THEME_NAMES.indexOf(settings.theme) + 1) % THEME_NAMES.length];
          void controller.updateSettings({ theme: next });
        } else if (item.key === 'review') {
          const next = REVIEW_MODES[(REVIEW_MODES.indexOf(settings.reviewWrites) + 1) % REVIEW_MODES.length];
          void controller.updateSettings({ reviewWrites: next });
        } else if (item.key === 'thoughts')
          void controller.updateSettings({ showThoughts: !settings.showThoughts });
        else if (item.key === 'clipboard')
          void controller.updateSettings({ clipboard: settings.clipboard === 'osc52' ? 'system' : 'osc52' });
        else if (item.key === 'keys') setKeys(true);
      }}
      onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
    >
      <Box flexDirection="column">
        <Text color={theme.text.muted}>
          {sanitizeInline(settingsPath(controller.client.paths.configDir))}
        </Text>
        {settingsProblems.map((problem) => (
          <Text key={problem} color={theme.status.warning}>{`⚠ ${sanitizeInline(problem)}`}</Text>
        ))}
      </Box>
    </SelectList>
  );
});

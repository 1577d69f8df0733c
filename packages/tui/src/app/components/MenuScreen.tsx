import { memo } from 'react';
import { useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { useController } from '../hooks/AppContext.js';
import type { Overlay, TabInfo } from '../state/app-state.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link MenuScreen}. */
export interface MenuScreenProps {
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible?: number;
  readonly tab: TabInfo | undefined;
  readonly hasModes: boolean;
  readonly hasConfig: boolean;
  readonly isActive?: boolean;
}

type Entry = SelectItem & { readonly run: () => void };

/** Every action in one list, each with a letter: the way to anything without remembering keys. */
export const MenuScreen = memo(function MenuScreen({
  tab,
  hasModes,
  hasConfig,
  isActive = true,
  maxVisible = 16,
}: MenuScreenProps) {
  const controller = useController();
  const browseKey = useKeyLabel('app.browse');
  const store = controller.store;
  const open = (overlay: Overlay) => () => store.dispatch({ type: 'overlay_opened', overlay });
  const entries: Entry[] = [
    {
      key: 'new',
      hotkey: 'n',
      label: 'New tab…',
      detail: 'another session, with any agent',
      run: open({ kind: 'agents', purpose: 'newTab' }),
    },
    {
      key: 'sessions',
      hotkey: 's',
      label: 'Sessions…',
      detail: 'reopen, load, resume or delete',
      run: open({ kind: 'sessions' }),
    },
  ];
  if (tab) {
    if (hasModes) entries.push({ key: 'mode', hotkey: 'm', label: 'Mode…', run: open({ kind: 'modes' }) });
    if (hasConfig)
      entries.push({ key: 'config', hotkey: 'o', label: 'Model & options…', run: open({ kind: 'config' }) });
    if ((tab.authOptions?.length ?? 0) > 0 || tab.phase === 'auth') {
      entries.push({
        key: 'auth',
        hotkey: 'a',
        label: 'Sign in…',
        run: open({ kind: 'auth', tabId: tab.id }),
      });
    }
    entries.push(
      {
        key: 'restart',
        hotkey: 'r',
        label: 'Restart the agent',
        detail: 'and reopen this session',
        run: () => void controller.restart(tab.id),
      },
      {
        key: 'close',
        hotkey: 'c',
        label: 'Close this tab',
        detail: 'ends the session with the agent; the record stays',
        run: () => void controller.closeTab(tab.id),
      },
      {
        key: 'browse',
        hotkey: 'b',
        label: 'Browse the transcript…',
        detail: `search, copy, open a tool call's file in the editor${browseKey ? ` · ${browseKey}` : ''}`,
        run: open({ kind: 'browse' }),
      },
      {
        key: 'history',
        hotkey: 'h',
        label: 'Show the whole history',
        detail: 'print every item of this session again',
        run: () => {
          store.dispatch({ type: 'overlay_closed' });
          store.dispatch({ type: 'view_toggled', option: 'fullHistory' });
        },
      },
      {
        key: 'info',
        hotkey: 'i',
        label: 'Session info…',
        detail: 'agent, ids, directories, MCP servers',
        run: open({ kind: 'info' }),
      },
      {
        key: 'traffic',
        hotkey: 'w',
        label: 'Traffic…',
        detail: 'the raw JSON-RPC of this session',
        run: open({ kind: 'traffic' }),
      },
    );
  }
  entries.push(
    {
      key: 'rules',
      hotkey: 'p',
      label: 'Permission rules…',
      detail: 'review and delete',
      run: open({ kind: 'rules' }),
    },
    {
      key: 'settings',
      hotkey: 't',
      label: 'Settings…',
      detail: 'theme, keys, write review, MCP servers',
      run: open({ kind: 'settings' }),
    },
    { key: 'help', hotkey: 'k', label: 'Keys…', run: open({ kind: 'help' }) },
    { key: 'quit', hotkey: 'q', label: 'Quit', run: () => void controller.quit(0) },
  );
  return (
    <SelectList
      title="Menu"
      items={entries}
      isActive={isActive}
      maxVisible={maxVisible}
      hint="↑↓ move · Enter or letter choose · Esc back"
      onSelect={(item) => entries.find((entry) => entry.key === item.key)?.run()}
      onCancel={() => store.dispatch({ type: 'overlay_closed' })}
    />
  );
});

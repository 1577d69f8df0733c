import { memo, useMemo } from 'react';
import { useKeyBindings, useKeyLabel } from '../../keys/KeyBindingsContext.js';
import { KEY_ACTIONS, type KeyScope } from '../../keys/key-bindings.js';
import { formatKeySpec } from '../../keys/key-spec.js';
import { EDITING_KEYS } from '../../components/KeyHelp.js';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link HelpScreen}. */
export interface HelpScreenProps {
  readonly isActive?: boolean;
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible: number;
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

/** The key map (F1 or `?`) as configured, grouped by where keys apply; scrolls with ↑↓. */
export const HelpScreen = memo(function HelpScreen({ isActive = true, maxVisible }: HelpScreenProps) {
  const controller = useController();
  const bindings = useKeyBindings();
  const menuKey = useKeyLabel('app.menu');
  const items = useMemo(() => {
    const out: SelectItem[] = [];
    for (const scope of Object.keys(SCOPE_TITLES) as KeyScope[]) {
      out.push({ key: `h:${scope}`, label: `── ${SCOPE_TITLES[scope]}`, disabled: true });
      for (const definition of KEY_ACTIONS.filter((d) => d.scope === scope)) {
        const keys = bindings[definition.action];
        const shown = keys.length === 0 ? '(unbound)' : keys.map(formatKeySpec).join('  ');
        out.push({ key: definition.action, label: `${shown.padEnd(18)} ${definition.description}` });
      }
    }
    out.push({ key: 'h:editing', label: '── Composer editing', disabled: true });
    for (const [keys, description] of EDITING_KEYS)
      out.push({ key: `e:${keys}`, label: `${keys.padEnd(18)} ${description}` });
    out.push({
      key: 'h:f1',
      label: `F1 also opens this screen · change keys in ${menuKey} → Settings`,
      disabled: true,
    });
    return out;
  }, [bindings, menuKey]);
  return (
    <SelectList
      title="Keys"
      items={items}
      isActive={isActive}
      maxVisible={maxVisible}
      initialIndex={1}
      hint="↑↓ scroll · Esc close"
      onSelect={() => undefined}
      onKey={(input, key) => {
        if (input === '?' || key.escape || input === 'q') {
          controller.store.dispatch({ type: 'overlay_closed' });
          return true;
        }
        return false;
      }}
    />
  );
});

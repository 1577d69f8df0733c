import { memo, useRef, useState } from 'react';
import { Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { useAppState, useController } from '../hooks/AppContext.js';
import type { TabSessionRule } from '../services/controller.js';
import type { TabInfo } from '../state/app-state.js';
import { ruleDetail, ruleSummary } from '../view/rule-view.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link RulesScreen}. */
export interface RulesScreenProps {
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible?: number;
  readonly isActive?: boolean;
}

/** Where a session rule applies: its tab (number, agent) and session title. */
export function sessionRuleDetail(entry: TabSessionRule, tabs: readonly TabInfo[], title?: string): string {
  const index = tabs.findIndex((tab) => tab.id === entry.tabId);
  const tab = tabs[index];
  const where = tab ? `tab ${index + 1} · ${tab.agentTitle ?? tab.agent.name}` : `session ${entry.localId}`;
  return ['this session only', title ? `${where} · ${title}` : where, entry.rule.id].join(' · ');
}

const tone = (action: string): 'ok' | 'bad' | 'warn' =>
  action === 'allow' ? 'ok' : action === 'deny' ? 'bad' : 'warn';

/**
 * The permission rules: the saved ones (the client's `rules.json`, applied to every agent) and
 * those remembered for the sessions of the open tabs. Review them and delete those you no longer
 * want (d, twice).
 */
export const RulesScreen = memo(function RulesScreen({ isActive = true, maxVisible = 14 }: RulesScreenProps) {
  const controller = useController();
  const theme = useTheme();
  const { tabs } = useAppState();
  const read = () => ({ saved: controller.rules, session: controller.sessionRules });
  const [rules, setRules] = useState(read);
  const [armed, setArmedState] = useState<string | undefined>();
  // The second press may arrive before Ink registers the handler of the latest render.
  const armedRef = useRef<string | undefined>(undefined);
  const setArmed = (key: string | undefined): void => {
    armedRef.current = key;
    setArmedState(key);
  };
  const remove = new Map<string, () => Promise<void>>();
  const items: SelectItem[] = [];
  for (const entry of rules.session) {
    const key = `session:${entry.localId}:${entry.rule.id}`;
    const runtime = controller.tab(entry.tabId);
    const title = runtime?.session?.state.title;
    items.push({
      key,
      label: ruleSummary(entry.rule, runtime?.cwd),
      detail: sessionRuleDetail(entry, tabs, title),
      tag: { text: `${entry.rule.action} · session`, tone: tone(entry.rule.action) },
    });
    remove.set(key, async () => controller.removeSessionRule(entry.localId, entry.rule.id));
  }
  for (const rule of rules.saved) {
    const key = `saved:${rule.id}`;
    items.push({
      key,
      label: ruleSummary(rule),
      detail: ruleDetail(rule),
      tag: { text: rule.action, tone: tone(rule.action) },
    });
    remove.set(key, () => controller.removeRule(rule.id));
  }
  return (
    <SelectList
      title={`Permission rules · base mode: ${controller.client.policy.mode}`}
      items={items}
      isActive={isActive}
      maxVisible={maxVisible}
      empty="No saved rules, no session rules. Remember an answer (r) to create one."
      hint="d delete (press twice) · Esc back"
      onSelect={() => undefined}
      onKey={(input, _key, item) => {
        if (input !== 'd' || !item) return false;
        if (armedRef.current !== item.key) setArmed(item.key);
        else {
          setArmed(undefined);
          void remove
            .get(item.key)?.()
            .then(() => setRules(read()));
        }
        return true;
      }}
      onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
    >
      <Text
        color={theme.text.muted}
      >{`Saved in ${controller.client.rules.file}. Deny rules win, then ask, then allow.`}</Text>
      <Text color={theme.text.muted}>
        Rules marked “session” were remembered for one session and end with it.
      </Text>
      {armed && <Text color={theme.status.warning}>Press d again to delete the highlighted rule.</Text>}
    </SelectList>
  );
});

import { memo, useRef, useState } from 'react';
import { Text } from 'ink';
import type { PermissionRule } from '@acp-kit/client';
import { useTheme } from '../../theme/ThemeContext.js';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link RulesScreen}. */
export interface RulesScreenProps {
  /** Rows of the list shown at once (it scrolls). */
  readonly maxVisible?: number;
  readonly isActive?: boolean;
}

/** A rule in one line: action, kinds, command or path. */
export function ruleSummary(rule: PermissionRule): string {
  const kinds = rule.kinds ? rule.kinds.join(', ') : 'anything';
  const what = rule.command ? ` \`${rule.command}\`` : rule.path ? ` ${rule.path}` : '';
  return `${rule.action} ${kinds}${what}`;
}

/** Where a rule applies and when it was made. */
export function ruleDetail(rule: PermissionRule): string {
  return [
    rule.agent ? `agent ${rule.agent}` : 'every agent',
    rule.project ? `in ${rule.project}` : 'everywhere',
    rule.createdAt ? rule.createdAt.slice(0, 10) : undefined,
    rule.note,
    rule.id,
  ]
    .filter((part): part is string => !!part)
    .join(' · ');
}

/**
 * The saved permission rules (the client's `rules.json`), applied to every agent: review them and
 * delete those you no longer want (d, twice).
 */
export const RulesScreen = memo(function RulesScreen({ isActive = true, maxVisible = 14 }: RulesScreenProps) {
  const controller = useController();
  const theme = useTheme();
  const [rules, setRules] = useState<readonly PermissionRule[]>(() => controller.rules);
  const [armed, setArmedState] = useState<string | undefined>();
  // The second press may arrive before Ink registers the handler of the latest render.
  const armedRef = useRef<string | undefined>(undefined);
  const setArmed = (key: string | undefined): void => {
    armedRef.current = key;
    setArmedState(key);
  };
  const items: SelectItem[] = rules.map((rule) => ({
    key: rule.id,
    label: ruleSummary(rule),
    detail: ruleDetail(rule),
    tag: {
      text: rule.action,
      tone: rule.action === 'allow' ? 'ok' : rule.action === 'deny' ? 'bad' : 'warn',
    },
  }));
  return (
    <SelectList
      title={`Permission rules · base mode: ${controller.client.policy.mode}`}
      items={items}
      isActive={isActive}
      maxVisible={maxVisible}
      empty="No saved rules. Answer a permission with a remembered scope (r) to create one."
      hint="d delete (press twice) · Esc back"
      onSelect={() => undefined}
      onKey={(input, _key, item) => {
        if (input !== 'd' || !item) return false;
        if (armedRef.current !== item.key) setArmed(item.key);
        else {
          setArmed(undefined);
          void controller.removeRule(item.key).then(() => setRules(controller.rules));
        }
        return true;
      }}
      onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
    >
      <Text
        color={theme.text.muted}
      >{`Saved in ${controller.client.rules.file}. Deny rules win, then ask, then allow.`}</Text>
      <Text color={theme.text.muted}>
        Answers remembered for one session are kept until the session ends.
      </Text>
      {armed && <Text color={theme.status.warning}>Press d again to delete the highlighted rule.</Text>}
    </SelectList>
  );
});

import { memo, useState } from 'react';
import { isUnknownVariant, type SessionConfigOption, type SessionModeState } from '@acp-kit/protocol';
import { configValueLabel, selectValues } from '../view/config-values.js';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link ModePicker}. */
export interface ModePickerProps {
  readonly modes: SessionModeState | undefined;
  readonly isActive?: boolean;
}

/** The session's modes (`session/set_mode`). */
export const ModePicker = memo(function ModePicker({ modes, isActive = true }: ModePickerProps) {
  const controller = useController();
  const available = modes?.availableModes ?? [];
  const items: SelectItem[] = available.map((mode, i) => ({
    key: mode.id,
    label: mode.name,
    hotkey: i < 9 ? String(i + 1) : undefined,
    ...(mode.id === modes?.currentModeId ? { tag: { text: 'current', tone: 'ok' as const } } : {}),
    ...(mode.description ? { detail: mode.description } : {}),
  }));
  return (
    <SelectList
      title="Mode"
      items={items}
      isActive={isActive}
      initialIndex={Math.max(
        0,
        available.findIndex((mode) => mode.id === modes?.currentModeId),
      )}
      empty="This agent has no modes."
      onSelect={(item) => void controller.setMode(item.key)}
      onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
    />
  );
});

/** Props of {@link ConfigPicker}. */
export interface ConfigPickerProps {
  readonly options: readonly SessionConfigOption[];
  readonly isActive?: boolean;
}

/**
 * The session's config options (model, mode, effort…): choose an option, then its value; boolean
 * options toggle (`session/set_config_option`).
 */
export const ConfigPicker = memo(function ConfigPicker({ options, isActive = true }: ConfigPickerProps) {
  const controller = useController();
  const [openId, setOpenId] = useState<string | undefined>();
  const open = options.find((option) => option.id === openId);
  const close = (): void => controller.store.dispatch({ type: 'overlay_closed' });
  if (open && !isUnknownVariant(open) && open.type === 'select') {
    const values = selectValues(open.options);
    const items: SelectItem[] = values.map((value, i) => ({
      key: value.value,
      label: value.group ? `${value.group} / ${value.name}` : value.name,
      hotkey: i < 9 ? String(i + 1) : undefined,
      ...(value.value === open.currentValue ? { tag: { text: 'current', tone: 'ok' as const } } : {}),
      ...(value.description ? { detail: value.description } : {}),
    }));
    return (
      <SelectList
        key={open.id}
        title={open.name}
        items={items}
        isActive={isActive}
        initialIndex={Math.max(
          0,
          values.findIndex((value) => value.value === open.currentValue),
        )}
        onSelect={(item) => {
          setOpenId(undefined);
          void controller.setConfigOption(open.id, item.key);
        }}
        onCancel={() => setOpenId(undefined)}
      />
    );
  }
  const items: SelectItem[] = options.map((option, i) => ({
    key: option.id,
    label: option.name,
    hotkey: i < 9 ? String(i + 1) : undefined,
    tag: { text: configValueLabel(option), tone: 'info' },
    ...(option.description ? { detail: option.description } : {}),
  }));
  return (
    <SelectList
      title="Session options"
      items={items}
      isActive={isActive}
      empty="This agent has no session options."
      hint="↑↓ move · Enter change · Esc back"
      onSelect={(item) => {
        const option = options.find((candidate) => candidate.id === item.key);
        if (!option || isUnknownVariant(option)) return;
        if (option.type === 'boolean') void controller.setConfigOption(option.id, !option.currentValue);
        else setOpenId(option.id);
      }}
      onCancel={close}
    />
  );
});

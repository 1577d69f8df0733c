/** Values of session config options (select groups flattened) and their display names. */
import {
  isUnknownVariant,
  type SessionConfigOption,
  type SessionConfigSelectGroup,
  type SessionConfigSelectOption,
  type SessionConfigSelectOptions,
} from '@acp-kit/protocol';

/** A select option's values, flattened, with their group names. */
export function selectValues(
  options: SessionConfigSelectOptions,
): (SessionConfigSelectOption & { group?: string })[] {
  const out: (SessionConfigSelectOption & { group?: string })[] = [];
  for (const entry of options as readonly (SessionConfigSelectOption | SessionConfigSelectGroup)[]) {
    if ('options' in entry) for (const value of entry.options) out.push({ ...value, group: entry.name });
    else out.push(entry);
  }
  return out;
}

/** The current value of a config option, as a name. */
export function configValueLabel(option: SessionConfigOption): string {
  if (isUnknownVariant(option)) return '?';
  if (option.type === 'boolean') return option.currentValue ? 'on' : 'off';
  return (
    selectValues(option.options).find((value) => value.value === option.currentValue)?.name ??
    String(option.currentValue)
  );
}

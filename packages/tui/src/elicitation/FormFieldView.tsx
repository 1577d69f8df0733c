import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { displayWidth } from '../text/width.js';
import type { FieldValue, FormChoice, FormField } from './form-fields.js';
import { detailRows, textWindow } from './form-layout.js';
import { FORMAT_HINTS } from './form-validation.js';

/** Most choices drawn side by side. */
const INLINE_CHOICES = 5;

/** The choices of a multi-select shown around its focused one, as many as fit `width` cells. */
function choiceWindow(field: { choices: readonly FormChoice[] }, focus: number, width: number) {
  const count = field.choices.length;
  for (let n = Math.min(INLINE_CHOICES, count); n > 1; n--) {
    const start = Math.max(0, Math.min(focus - Math.floor((n - 1) / 2), count - n));
    const shown = field.choices.slice(start, start + n);
    const markers = (start > 0 ? `‹ ${start} `.length : 0) + (start + n < count ? 6 : 0);
    const cells = shown.reduce((sum, c) => sum + 6 + displayWidth(sanitizeInline(c.title)), 0) + markers;
    if (cells <= width) return { start, shown };
  }
  const start = Math.max(0, Math.min(focus, count - 1));
  return { start, shown: field.choices.slice(start, start + 1) };
}

function ValueLine({ field, value, focused, width }: FormFieldViewProps) {
  const theme = useTheme();
  const muted = theme.text.muted;
  const choice = (on: boolean, text: string, key: string, highlight = false) => (
    <Text key={key} color={on && focused ? theme.focus : undefined} inverse={highlight}>
      {text}
    </Text>
  );
  if (value.kind === 'text') {
    const text = value.buffer.text;
    if (!focused) {
      const format = field.kind === 'text' && field.format ? FORMAT_HINTS[field.format] : undefined;
      return text === '' ? (
        <Text color={muted}>{format ?? '(empty)'}</Text>
      ) : (
        <Text>{sanitizeInline(text)}</Text>
      );
    }
    const { before, at, after } = textWindow(text, value.buffer.cursor, width);
    return (
      <Text>
        {before}
        <Text inverse>{at}</Text>
        {after}
      </Text>
    );
  }
  if (field.kind === 'select' && value.kind === 'select') {
    if (field.choices.length === 0) return <Text color={muted}>(the agent offers no choices)</Text>;
    const row = field.choices.map(
      (c, i) => `${value.index === i ? '(•)' : '( )'} ${sanitizeInline(c.title)}`,
    );
    if (field.choices.length <= INLINE_CHOICES && displayWidth(row.join('  ')) <= width)
      return (
        <Text>
          {row.map((text, i) => choice(value.index === i, `${i > 0 ? '  ' : ''}${text}`, String(i)))}
        </Text>
      );
    const chosen = value.index === undefined ? undefined : field.choices[value.index];
    const position = value.index === undefined ? '' : `  ${value.index + 1}/${field.choices.length}`;
    return <Text>{`‹ ${sanitizeInline(chosen?.title ?? '(none)')} ›${position}`}</Text>;
  }
  if (field.kind === 'multiselect' && value.kind === 'multiselect') {
    const { start, shown } = choiceWindow(field, value.focus, width);
    const after = field.choices.length - start - shown.length;
    return (
      <Text>
        {start > 0 && <Text color={muted}>{`‹ ${start} `}</Text>}
        {shown.map((c, j) => {
          const i = start + j;
          const on = value.chosen[i] === true;
          const text = `${j > 0 ? '  ' : ''}[${on ? 'x' : ' '}] ${sanitizeInline(c.title)}`;
          return choice(on, text, String(i), focused && i === value.focus);
        })}
        {after > 0 && <Text color={muted}>{` ${after} ›`}</Text>}
      </Text>
    );
  }
  return <Text color={muted}>(cannot be filled in here)</Text>;
}

/** Props of {@link FormFieldView}. */
export interface FormFieldViewProps {
  readonly field: FormField;
  readonly value: FieldValue;
  readonly error: string | undefined;
  readonly focused: boolean;
  /** Cells for the value and details (inside the indent). */
  readonly width: number;
  /** Wrap the details of the focused field (when the form has the rows). */
  readonly wrap?: boolean;
}

/**
 * One field of a form elicitation: its title (`*` when required) with its error beside it, its
 * value, and its description with what the schema asks. Every agent-given text is sanitized, and
 * every line is cut at the edge rather than wrapped, so the form takes the rows it counted.
 */
export const FormFieldView = memo(function FormFieldView(props: FormFieldViewProps) {
  const { field, value, error, focused, width, wrap = true } = props;
  const theme = useTheme();
  const box = value.kind === 'boolean' ? `[${value.checked ? 'x' : ' '}] ` : '';
  const details = detailRows(field, value, focused && wrap ? width : undefined);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={theme.focus}>{focused ? '❯ ' : '  '}</Text>
        <Text color={focused ? theme.focus : undefined}>{box}</Text>
        <Text bold={focused}>{sanitizeInline(field.title)}</Text>
        {field.required && <Text color={theme.status.warning}> *</Text>}
        {error !== undefined && <Text color={theme.status.error}>{`  ✗ ${sanitizeInline(error)}`}</Text>}
      </Text>
      {value.kind !== 'boolean' && (
        <Box marginLeft={4}>
          <Text wrap="truncate-end">
            <ValueLine {...props} />
          </Text>
        </Box>
      )}
      {details.map((row, i) => (
        <Box key={i} marginLeft={4}>
          <Text color={theme.text.muted} wrap="truncate-end">
            {row}
          </Text>
        </Box>
      ))}
    </Box>
  );
});

import { memo, useMemo } from 'react';
import { Box, Text, useStdout } from 'ink';
import type { ElicitationSchema } from '@acp-kit/protocol';
import { useTheme } from '../theme/ThemeContext.js';
import { useKeyLabel } from '../keys/KeyBindingsContext.js';
import { sanitizeInline, sanitizeText } from '../sanitize/sanitize-text.js';
import { expandTabs, plural, splitLines } from '../text/fold.js';
import { formFields } from './form-fields.js';
import { FORM_BUTTONS, type FormOutcome, type FormState } from './form-state.js';
import { FormFieldView } from './FormFieldView.js';
import { fieldRows, formLayout, wrapText } from './form-layout.js';
import { useElicitationForm } from './useElicitationForm.js';

/** Props of {@link ElicitationForm}. */
export interface ElicitationFormProps {
  /** The agent's message (agent-controlled). */
  readonly message: string;
  readonly schema: ElicitationSchema;
  /** Called once, with the answer. */
  readonly onAnswer: (outcome: FormOutcome) => void;
  /** The form as the user left it (it is hidden while another tab or screen is shown). */
  readonly draft?: FormState;
  /** Called with every change of the form. */
  readonly onDraft?: (state: FormState) => void;
  /** Who asks. */
  readonly agentName?: string;
  /** Other forms of this tab waiting behind this one. */
  readonly waiting?: number;
  /** Rows the form may take (the message folds and the fields scroll to fit). */
  readonly rows?: number;
  readonly isActive?: boolean;
  /** Typeahead guard: keys this soon after the form opens are ignored. Default 400 ms. */
  readonly armDelayMs?: number;
  /** Clock for the typeahead guard (injected by tests). */
  readonly now?: () => number;
}

/** An agent's name cut to a length that leaves the rest of the title line in view. */
function shortName(name: string): string {
  const chars = [...name];
  return chars.length > 40 ? `${chars.slice(0, 39).join('')}…` : name;
}

const BUTTON_LABELS = { submit: 'Submit', decline: 'Decline', cancel: 'Cancel' } as const;
const NO_VALUE = { kind: 'none' } as const;

/** Submit, Decline, Cancel; `focused` is the index of the focused one, if any. */
function FormButtons({ focused }: { focused: number | undefined }) {
  const theme = useTheme();
  return (
    <Text>
      {FORM_BUTTONS.map((button, i) => {
        const on = focused === i;
        return (
          <Text key={button}>
            <Text color={theme.focus}>{`${i > 0 ? '  ' : ''}${on ? '❯' : ' '}`}</Text>
            <Text color={on ? theme.focus : undefined} bold={on} inverse={on}>
              {` ${BUTTON_LABELS[button]} `}
            </Text>
          </Text>
        );
      })}
    </Text>
  );
}

/**
 * A form elicitation (`elicitation/create`, form mode): the agent's message, one field per
 * property of its schema, and Submit / Decline / Cancel. Submit sends the content only when every
 * field passes the schema's checks; otherwise the errors show beside the fields.
 */
export const ElicitationForm = memo(function ElicitationForm({
  message,
  schema,
  onAnswer,
  draft,
  onDraft,
  agentName,
  waiting = 0,
  rows = 40,
  isActive = true,
  armDelayMs = 400,
  now = Date.now,
}: ElicitationFormProps) {
  const theme = useTheme();
  const fields = useMemo(() => formFields(schema), [schema]);
  const { state, armed, hint } = useElicitationForm({
    fields,
    onAnswer,
    draft,
    onDraft,
    isActive,
    armDelayMs,
    now,
  });
  const keys = {
    next: useKeyLabel('form.next'),
    toggle: useKeyLabel('form.toggle'),
    submit: useKeyLabel('form.submit'),
    decline: useKeyLabel('form.decline'),
    cancel: useKeyLabel('form.cancel'),
  };
  const schemaTitle = typeof schema.title === 'string' ? sanitizeInline(schema.title) : '';
  const schemaDescription = typeof schema.description === 'string' ? sanitizeInline(schema.description) : '';
  // Every row is laid out here and drawn cut at the edge, so the form takes exactly the rows counted.
  const inner = Math.max(16, (useStdout().stdout.columns ?? 80) - 4);
  const keyHint = armed
    ? `${keys.next}/↑↓ move · ←→ choose · ${keys.toggle} tick · ${keys.submit} submit · ${keys.decline} decline · ${keys.cancel} cancel`
    : 'Read the form: keys work in a moment';
  const footer = [
    ...(state.notice === undefined
      ? []
      : wrapText(state.notice, inner).map((row) => [row, theme.status.error])),
    ...(hint === undefined ? [] : wrapText(hint, inner).map((row) => [row, theme.status.warning])),
    ...wrapText(keyHint, inner).map((row) => [row, theme.text.muted]),
  ];
  const messageRows = useMemo(
    () =>
      wrapText(
        splitLines(sanitizeText(message))
          .map((line) => expandTabs(line))
          .join('\n'),
        inner,
      ),
    [message, inner],
  );
  const width = inner - 4;
  const heights = (wrapFocused: boolean) =>
    fields.map((field, i) =>
      fieldRows(field, state.values[i] ?? NO_VALUE, wrapFocused && state.focus === i ? width : undefined),
    );
  const layout = formLayout({
    rows,
    footerRows: footer.length,
    hasTitle: schemaTitle !== '',
    hasDescription: schemaDescription !== '',
    messageRows,
    heights: heights(true),
    flatHeights: heights(false),
    focus: state.focus,
  });
  const { message: text, start, end } = layout;
  const visible = fields.slice(start, end);
  const below = fields.length - end;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.status.warning} paddingX={1}>
      <Text bold color={theme.status.warning} wrap="truncate-end">
        {`Input requested by ${agentName ? shortName(sanitizeInline(agentName)) : 'the agent'}${waiting > 0 ? ` · ${waiting} more waiting` : ''}`}
      </Text>
      {text.shown.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line === '' ? ' ' : line}
        </Text>
      ))}
      {text.hidden > 0 && <Text color={theme.text.muted}>{`… ${plural(text.hidden, 'more line')}`}</Text>}
      {layout.showTitle && (
        <Text bold wrap="truncate-end">
          {schemaTitle}
        </Text>
      )}
      {layout.showDescription && (
        <Text color={theme.text.muted} wrap="truncate-end">
          {schemaDescription}
        </Text>
      )}
      <Box flexDirection="column" marginTop={layout.gap ? 1 : 0}>
        {start > 0 && <Text color={theme.text.muted}>{`↑ ${plural(start, 'more field')}`}</Text>}
        {visible.map((field, j) => {
          const i = start + j;
          const value = state.values[i];
          if (!value) return null;
          return (
            <FormFieldView
              key={i}
              field={field}
              value={value}
              error={state.errors[i]}
              focused={state.focus === i}
              width={width}
              wrap={layout.wrapFocused}
            />
          );
        })}
        {below > 0 && <Text color={theme.text.muted}>{`↓ ${plural(below, 'more field')}`}</Text>}
      </Box>
      <FormButtons focused={state.focus >= fields.length ? state.button : undefined} />
      {footer.map(([row, color], i) => (
        <Text key={i} color={color} wrap="truncate-end">
          {row}
        </Text>
      ))}
    </Box>
  );
});

import { memo } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { visibleText } from '@acp-kit/client';
import { sanitizeText } from '../sanitize/sanitize-text.js';
import { foldLines, plural, splitLines } from '../text/fold.js';
import { displayPath } from '../text/paths.js';
import type { PermissionOperation } from '../view-model/permission.js';
import { DiffView } from '../components/DiffView.js';
import { FileChangeView } from '../components/FileChangeView.js';
import { MarkdownView } from '../markdown/MarkdownView.js';

/** Props of {@link OperationView}. */
export interface OperationViewProps {
  readonly operation: PermissionOperation;
  readonly cwd?: string;
  /** Show long diffs, text and raw input in full. */
  readonly expanded?: boolean;
  readonly expandHint?: string;
  /** Most lines of a diff, text or raw input shown (so the prompt fits the screen), even expanded. */
  readonly maxLines?: number;
}

function Folded({
  text,
  max,
  hint,
  markdown = false,
}: {
  text: string;
  max: number | undefined;
  hint: string;
  /** Agent text: drawn as Markdown (a code fence is a code block, never raw backticks). */
  markdown?: boolean;
}) {
  const theme = useTheme();
  const { shown, hidden } = foldLines(splitLines(markdown ? text : sanitizeText(text)), max, 'head');
  return (
    <Box flexDirection="column">
      {markdown ? <MarkdownView text={shown.join('\n')} /> : <Text>{shown.join('\n')}</Text>}
      {hidden > 0 && <Text color={theme.text.muted}>{`… ${plural(hidden, 'more line')}${hint}`}</Text>}
    </Box>
  );
}

/**
 * The exact operation a permission request is about: the whole command line (never shortened,
 * multi-line scripts included) once, as a command, its working directory and every environment
 * variable it sets (with its value), every path, every diff, and text content (Markdown); the raw
 * input when nothing else could be read from it. Commands, paths and variables show their
 * invisible characters as escapes (`\u{200b}`, `\r`): they are part of what is approved.
 */
export const OperationView = memo(function OperationView({
  operation,
  cwd,
  expanded = false,
  expandHint = '',
  maxLines,
}: OperationViewProps) {
  const theme = useTheme();
  const cap = (preferred: number | undefined): number | undefined =>
    maxLines === undefined ? preferred : Math.min(preferred ?? maxLines, maxLines);
  return (
    <Box flexDirection="column">
      {operation.command !== undefined && (
        <Text>
          <Text color={theme.text.accent}>$ </Text>
          <Text bold>{visibleText(operation.command, { keepNewlines: true })}</Text>
        </Text>
      )}
      {operation.cwd !== undefined && (
        <Text color={theme.text.muted}>{`in ${displayPath(operation.cwd, cwd)}`}</Text>
      )}
      {operation.env?.map((variable, i) => (
        <Text key={`env-${i}`}>
          <Text color={theme.text.muted}>{'env '}</Text>
          {`${visibleText(variable.name)}=${visibleText(variable.value)}`}
        </Text>
      ))}
      {operation.paths.map((p, i) => (
        <Text key={i}>
          <Text color={theme.text.muted}>{'path '}</Text>
          {displayPath(p.path, cwd, p.line)}
        </Text>
      ))}
      {operation.diffs.map((diff, i) => (
        <DiffView
          key={i}
          path={diff.path}
          cwd={cwd}
          oldText={diff.oldText}
          newText={diff.newText}
          placement={operation.diffPlacements?.[i] ?? null}
          maxLines={cap(expanded ? undefined : 40)}
          expandHint={expandHint}
        />
      ))}
      {operation.changes?.map((change, i) => (
        <FileChangeView
          key={`change-${i}`}
          change={change}
          cwd={cwd}
          maxLines={cap(expanded ? undefined : 40)}
          expandHint={expandHint}
        />
      ))}
      {operation.text.map((text, i) => (
        <Folded key={i} text={text} max={cap(expanded ? undefined : 10)} hint={expandHint} markdown />
      ))}
      {operation.rawInput !== undefined && (
        <Folded
          text={JSON.stringify(operation.rawInput, null, 2) ?? ''}
          max={cap(expanded ? undefined : 20)}
          hint={expandHint}
        />
      )}
    </Box>
  );
});

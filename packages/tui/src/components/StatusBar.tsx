import { memo, type ReactElement } from 'react';
import type { ToolKind } from '@acp-kit/protocol';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { useNow } from '../clock/ClockContext.js';
import { useKeyLabel } from '../keys/KeyBindingsContext.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { displayPath } from '../text/paths.js';
import { plural } from '../text/fold.js';
import type { StatusView } from '../view-model/status.js';
import { connectionLabel, stallNotice, toneColor, usageSummary } from './status-format.js';
import { toolKindIcon } from './tool-icons.js';

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  readonly status: StatusView;
  /** Silence during a turn after which the stall indicator shows. Default 30 s. */
  readonly stallAfterMs?: number;
}

const SEP = ' │ ';

/**
 * Two status lines. First: connection, agent name and version, session title, mode and model.
 * Second: a stall indicator ("no updates for 40 s") when a running turn goes silent, permission
 * requests waiting, the agent's background work, the context usage gauge and cost, and what the running tool works on (its
 * location with its kind's icon, or the command it runs). Time comes
 * from the clock context.
 */
export const StatusBar = memo(function StatusBar({ status, stallAfterMs = 30_000 }: StatusBarProps) {
  const theme = useTheme();
  const now = useNow();
  const cancelKey = useKeyLabel('app.cancel');
  const connection = connectionLabel(status.connection);
  const connectionColor = toneColor(connection.tone, theme);
  const usage = status.usage ? usageSummary(status.usage) : undefined;
  const usageColor =
    usage?.fraction === undefined
      ? theme.text.muted
      : usage.fraction >= 0.9
        ? theme.status.error
        : usage.fraction >= 0.7
          ? theme.status.warning
          : theme.status.success;
  const stall = stallNotice(status.turn?.lastUpdateAt, now, stallAfterMs);
  const waiting = status.queuedPermissions ?? 0;
  const forms = status.queuedElicitations ?? 0;
  const second: ReactElement[] = [];
  // Most urgent first: the line is truncated at the terminal's width.
  if (stall) {
    second.push(
      <Text
        key="stall"
        color={theme.status.warning}
      >{`⚠ ${stall}${cancelKey ? ` · ${cancelKey} to cancel` : ''}`}</Text>,
    );
  }
  if (waiting > 0) {
    second.push(
      <Text
        key="perm"
        color={theme.status.warning}
      >{`⚑ ${plural(waiting, 'permission request')} waiting`}</Text>,
    );
  }
  if (forms > 0) {
    second.push(<Text key="forms" color={theme.status.warning}>{`⚑ ${plural(forms, 'form')} waiting`}</Text>);
  }
  if (status.background) {
    second.push(
      <Text
        key="background"
        color={theme.text.accent}
      >{`◌ in background: ${sanitizeInline(status.background)}`}</Text>,
    );
  }
  if (usage) {
    second.push(
      <Text key="usage">
        <Text color={theme.text.muted}>ctx </Text>
        <Text color={usageColor}>{usage.bar}</Text>
        <Text>{` ${usage.text}`}</Text>
      </Text>,
    );
  }
  if (status.currentCommand !== undefined) {
    second.push(
      <Text key="loc" color={theme.text.accent}>{`${toolKindIcon('execute')} ${sanitizeInline(
        status.currentCommand,
      )}`}</Text>,
    );
  } else if (status.currentLocation) {
    const { path, line } = status.currentLocation;
    const icon = toolKindIcon((status.currentKind ?? 'edit') as ToolKind);
    second.push(
      <Text key="loc" color={theme.text.accent}>{`${icon} ${displayPath(path, status.cwd, line)}`}</Text>,
    );
  }
  const first = [status.sessionTitle, status.mode, status.model]
    .filter((s): s is string => !!s)
    .map(sanitizeInline);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text color={connectionColor}>{`${connection.icon} ${connection.text}`}</Text>
        {status.remote && (
          <Text
            color={theme.text.muted}
          >{` ⇄ remote ${sanitizeInline(status.remote)} · files & terminals here`}</Text>
        )}
        <Text color={theme.text.muted}>{SEP}</Text>
        <Text bold>{sanitizeInline(status.agentName)}</Text>
        {status.agentVersion && (
          <Text color={theme.text.muted}>{` ${sanitizeInline(status.agentVersion)}`}</Text>
        )}
        {first.map((part, i) => (
          <Text key={i}>
            <Text color={theme.text.muted}>{SEP}</Text>
            {part}
          </Text>
        ))}
      </Text>
      {second.length > 0 && (
        <Text wrap="truncate-end">
          {second.map((part, i) => (
            <Text key={i}>
              {i > 0 && <Text color={theme.text.muted}>{SEP}</Text>}
              {part}
            </Text>
          ))}
        </Text>
      )}
    </Box>
  );
});

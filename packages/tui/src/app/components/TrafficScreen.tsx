import { memo, useEffect, useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { sanitizeText } from '../../sanitize/sanitize-text.js';
import { foldLines, splitLines } from '../../text/fold.js';
import { readTraceTail, tracePath, type TrafficEntry } from '../services/traffic.js';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link TrafficScreen}. */
export interface TrafficScreenProps {
  /** The session whose traffic is shown. */
  readonly localId: string | undefined;
  readonly rows: number;
  readonly isActive?: boolean;
}

/** How often the trace is read again while the screen is open. */
const REFRESH_MS = 500;

/** `12:34:56.789` of a timestamp. */
export function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

/**
 * The raw JSON-RPC of the current session (from the engine's redacted trace), newest last:
 * → sent to the agent, ← received. Enter shows a frame in full; the list follows new frames.
 */
export const TrafficScreen = memo(function TrafficScreen({
  localId,
  rows,
  isActive = true,
}: TrafficScreenProps) {
  const controller = useController();
  const theme = useTheme();
  const [entries, setEntries] = useState<TrafficEntry[]>([]);
  const [shown, setShown] = useState<number | undefined>();
  const path = useMemo(
    () => (localId ? tracePath(controller.client.transcripts.sessionDir(localId)) : undefined),
    [controller, localId],
  );
  useEffect(() => {
    if (!path) return undefined;
    let live = true;
    let size = -1;
    const read = async (): Promise<void> => {
      const tail = await readTraceTail(path);
      if (live && tail.size !== size) {
        size = tail.size;
        setEntries(tail.entries.slice(-500));
      }
    };
    void read();
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [path]);
  const detailRows = shown !== undefined ? Math.max(4, Math.floor(rows / 2)) : 0;
  const items: SelectItem[] = entries.map((entry, i) => ({
    key: String(i),
    label: `${clockTime(entry.at)} ${entry.direction === 'out' ? '→' : '←'} ${entry.summary}`,
    tag: entry.kind === 'error' ? { text: 'error', tone: 'bad' } : undefined,
  }));
  const frame = shown !== undefined ? entries[shown] : undefined;
  const frameLines = frame ? splitLines(sanitizeText(JSON.stringify(frame.frame, null, 2))) : [];
  const folded = foldLines(frameLines, detailRows - 1, 'head');
  return (
    <Box flexDirection="column">
      <SelectList
        key={shown === undefined ? entries.length : 'detail'}
        title={`Traffic · ${localId ?? 'no session'} · → to the agent, ← from it`}
        items={items}
        isActive={isActive}
        initialIndex={shown ?? entries.length - 1}
        maxVisible={Math.max(3, rows - 8 - detailRows)}
        empty={path ? 'No frames recorded yet.' : 'This tab has no session.'}
        hint="Enter show/hide the frame · Esc back"
        onSelect={(item) =>
          setShown((current) => (current === Number(item.key) ? undefined : Number(item.key)))
        }
        onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
      />
      {frame && (
        <Box flexDirection="column" paddingLeft={1}>
          {folded.shown.map((line, i) => (
            <Text key={i} wrap="truncate-end">
              {line}
            </Text>
          ))}
          {folded.hidden > 0 && <Text color={theme.text.muted}>{`… ${folded.hidden} more lines`}</Text>}
        </Box>
      )}
    </Box>
  );
});

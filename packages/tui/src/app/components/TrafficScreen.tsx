import { memo, useEffect, useState } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../../theme/ThemeContext.js';
import { sanitizeText } from '../../sanitize/sanitize-text.js';
import { foldLines, splitLines } from '../../text/fold.js';
import { trafficEntry, type TrafficEntry } from '../services/traffic.js';
import { useController } from '../hooks/AppContext.js';
import { SelectList, type SelectItem } from './SelectList.js';

/** Props of {@link TrafficScreen}. */
export interface TrafficScreenProps {
  /** The session whose traffic is shown. */
  readonly localId: string | undefined;
  readonly rows: number;
  readonly isActive?: boolean;
}

/** Frames arriving within this long are shown together (a flood redraws the list ten times a second). */
const COALESCE_MS = 100;

/** `12:34:56.789` of a timestamp. */
export function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23);
}

/**
 * The raw JSON-RPC of the current session, live from the engine (secrets redacted), newest last:
 * → sent to the agent, ← received. It opens on the session's recent frames (for a reopened
 * session, the end of its recorded trace) and follows new ones; Enter shows a frame in full.
 */
export const TrafficScreen = memo(function TrafficScreen({
  localId,
  rows,
  isActive = true,
}: TrafficScreenProps) {
  const controller = useController();
  const theme = useTheme();
  const session = controller.sessionOf(localId);
  const [feed, setFeed] = useState<{ entries: readonly TrafficEntry[]; version: number }>(() => ({
    entries: session?.recentFrames().map(trafficEntry) ?? [],
    version: 0,
  }));
  const [shown, setShown] = useState<TrafficEntry | undefined>();
  useEffect(() => {
    if (!session) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const refresh = (): void => {
      timer = undefined;
      setFeed((current) => ({
        entries: session.recentFrames().map(trafficEntry),
        version: current.version + 1,
      }));
    };
    refresh();
    const off = session.onFrame(() => {
      timer ??= setTimeout(refresh, COALESCE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [session]);
  const { entries, version } = feed;
  const shownIndex = shown ? entries.indexOf(shown) : -1;
  const detailRows = shown !== undefined ? Math.max(4, Math.floor(rows / 2)) : 0;
  const items: SelectItem[] = entries.map((entry, i) => ({
    key: String(i),
    label: `${clockTime(entry.at)} ${entry.direction === 'out' ? '→' : '←'} ${entry.summary}`,
    tag: entry.kind === 'error' ? { text: 'error', tone: 'bad' } : undefined,
  }));
  const frameLines = shown ? splitLines(sanitizeText(JSON.stringify(shown.frame, null, 2))) : [];
  const folded = foldLines(frameLines, detailRows - 1, 'head');
  return (
    <Box flexDirection="column">
      <SelectList
        key={shown === undefined ? `follow-${version}` : 'detail'}
        title={`Traffic · ${localId ?? 'no session'} · → to the agent, ← from it`}
        items={items}
        isActive={isActive}
        initialIndex={shownIndex >= 0 ? shownIndex : entries.length - 1}
        maxVisible={Math.max(3, rows - 8 - detailRows)}
        empty={session ? 'No frames yet.' : 'This tab has no session.'}
        hint="Enter show/hide the frame · Esc back"
        onSelect={(item) => {
          const entry = entries[Number(item.key)];
          setShown((current) => (current === entry ? undefined : entry));
        }}
        onCancel={() => controller.store.dispatch({ type: 'overlay_closed' })}
      />
      {shown && (
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

/**
 * The session screen of a tab whose agent is starting, as the UI's first frame draws it (App:
 * the tab's line and the empty composer, then the tab bar, the status bar and the key hints),
 * drawn without React so that it is on screen while the UI loads. The texts come from the same
 * functions the components use; the layout mirrors theirs, and a test compares the two frames
 * cell by cell through a terminal emulator.
 */
import { keyHints, type HintKeys } from '../app/components/key-hints.js';
import { startingMessage, tabLabel, tabMarker } from '../app/components/tab-label.js';
import { connectionLabel, toneColor } from '../components/status-format.js';
import { spinnerFrame } from '../components/spinner-frames.js';
import { composerPlaceholder, PROMPT_MARK } from '../composer/placeholder.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import type { Theme } from '../theme/theme.js';
import { paintBox, paintLine, type Line } from './paint.js';

/** What the session screen of a starting agent shows. */
export interface SessionChromeInput {
  readonly columns: number;
  readonly theme: Theme;
  readonly keys: HintKeys;
  /** The catalog's name of the agent. */
  readonly agentName: string;
  /** The time the spinner shows. */
  readonly now: number;
}

/** The frame's lines, or undefined when the UI must draw it (too narrow, characters not drawn here). */
export function sessionChrome({
  columns,
  theme,
  keys,
  agentName,
  now,
}: SessionChromeInput): string[] | undefined {
  const connection = connectionLabel('initializing');
  const line = (spans: Line): string[] | undefined => {
    const painted = paintLine(spans, columns);
    return painted === undefined ? undefined : [painted];
  };
  const parts = [
    // BottomPanel: the tab's line, then the composer.
    line([
      { text: spinnerFrame(now), color: theme.status.info },
      { text: ` ${sanitizeInline(startingMessage(agentName))}`, color: theme.text.muted },
    ]),
    paintBox(
      [
        [
          { text: PROMPT_MARK, color: theme.text.accent },
          { text: ' ', inverse: true },
          { text: composerPlaceholder({ attachments: 0, busy: false }), color: theme.text.muted },
        ],
      ],
      columns,
      theme.focus,
    ),
    // StatusArea: the tab bar, the status bar, the key hints.
    line([
      { text: tabLabel(0, agentName), inverse: true, bold: true },
      { text: ` ${tabMarker({ phase: 'starting' }, false)}` },
    ]),
    line([
      { text: `${connection.icon} ${connection.text}`, color: toneColor(connection.tone, theme) },
      { text: ' │ ', color: theme.text.muted },
      { text: sanitizeInline(agentName), bold: true },
    ]),
    line([{ text: keyHints(keys, false, false), color: theme.text.muted }]),
  ];
  return parts.every((part): part is string[] => part !== undefined) ? parts.flat() : undefined;
}

import { memo, useCallback, useMemo, useState } from 'react';
import type { SessionState } from '@acp-kit/client';
import { useController } from '../hooks/AppContext.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';
import {
  BrowseDocumentBuilder,
  type BrowseDocument,
  type BrowseLocation,
  type BrowseUnit,
} from './browse-document.js';
import type { BrowsePosition } from './browse-navigation.js';
import { TranscriptBrowser, unitName } from './TranscriptBrowser.js';

/** Props of {@link BrowseScreen}. */
export interface BrowseScreenProps {
  /** The current tab's session. */
  readonly state: SessionState | undefined;
  readonly rows: number;
  /** Where the browser was before an editor took the terminal. */
  readonly position?: BrowsePosition;
  readonly isActive?: boolean;
}

const EMPTY: BrowseDocument = { lines: [], units: [] };

/**
 * The transcript browser over the current tab's session (`Ctrl+F`): copies through the
 * controller, and opens locations in the editor, keeping its position in the overlay meanwhile.
 */
export const BrowseScreen = memo(function BrowseScreen({
  state,
  rows,
  position,
  isActive = true,
}: BrowseScreenProps) {
  const controller = useController();
  const { columns } = useTerminalSize();
  const [builder] = useState(() => new BrowseDocumentBuilder());
  const document = useMemo(() => (state ? builder.build(state) : EMPTY), [builder, state]);
  const cwd = state?.cwd ?? controller.cwd;
  const onCopy = useCallback(
    (unit: BrowseUnit) => void controller.transcript.copy(unit.copyText, unitName(unit)),
    [controller],
  );
  const onOpen = useCallback(
    (location: BrowseLocation, at: BrowsePosition) => {
      // The UI is unmounted while a terminal editor runs: the overlay keeps where the browser was.
      controller.store.dispatch({ type: 'overlay_opened', overlay: { kind: 'browse', position: at } });
      void controller.transcript.open(location, cwd);
    },
    [controller, cwd],
  );
  const onClose = useCallback(() => controller.store.dispatch({ type: 'overlay_closed' }), [controller]);
  return (
    <TranscriptBrowser
      document={document}
      rows={rows}
      columns={columns}
      isActive={isActive}
      onCopy={onCopy}
      onOpen={onOpen}
      onClose={onClose}
      {...(position ? { initial: position } : {})}
      {...(state?.title ? { title: state.title } : {})}
    />
  );
});

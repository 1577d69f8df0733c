import { memo, useCallback, useMemo } from 'react';
import type { SessionState } from '@acp-kit/client';
import type { AvailableCommand } from '@acp-kit/protocol';
import { Composer } from '../../composer/Composer.js';
import { imagePromptPart, type ImageAttachment, type ImageSupport } from '../../composer/image-attachment.js';
import { messageText } from '../../components/message-segments.js';
import { useController } from '../hooks/AppContext.js';
import { useAppSelector } from '../hooks/useAppSelector.js';
import { createImageReader } from '../services/image-reader.js';
import { activeTab, type AppState } from '../state/app-state.js';

/** Props of {@link ComposerArea}. */
export interface ComposerAreaProps {
  readonly commands: readonly AvailableCommand[] | undefined;
  /** Earlier prompts, oldest first (see {@link promptHistory}). */
  readonly history: readonly string[];
  readonly files: readonly string[];
  readonly queued: number;
  /** A turn is running (typing continues; a prompt is queued). */
  readonly busy: boolean;
  readonly isActive: boolean;
}

/** Earlier prompts of a session, oldest first (for ↑ history). */
export function promptHistory(state: SessionState | undefined): string[] {
  if (!state) return [];
  const history: string[] = [];
  for (const item of state.items) {
    if (item.kind === 'message' && item.role === 'user') {
      const text = messageText(item.content).trim();
      if (text !== '' && history[history.length - 1] !== text) history.push(text);
    }
  }
  return history;
}

/** Whether the active tab's agent accepts images: unknown until it has answered `initialize`. */
function imageSupportOf(state: AppState): ImageSupport {
  const capabilities = activeTab(state)?.capabilities;
  if (!capabilities) return 'unknown';
  return capabilities.image === true ? 'yes' : 'no';
}

/** What a prompt sent now waits for: the running turn, or the session still opening. */
function waitingForOf(state: AppState): 'turn' | 'session' {
  return activeTab(state)?.phase === 'ready' ? 'turn' : 'session';
}

/**
 * The composer of the active tab, wired to its session's commands, files, history and queue, and
 * to the image sources when the agent accepts images. Its props change only when one of those
 * does, so streamed chunks do not redraw it.
 */
export const ComposerArea = memo(function ComposerArea({
  commands,
  history,
  files,
  queued,
  busy,
  isActive,
}: ComposerAreaProps) {
  const controller = useController();
  const imageSupport = useAppSelector(imageSupportOf);
  const waitingFor = useAppSelector(waitingForOf);
  const images = useMemo(() => createImageReader(controller.env), [controller]);
  const submit = useCallback(
    (text: string, attached: readonly ImageAttachment[]) =>
      controller.submit(text, attached.map(imagePromptPart)),
    [controller],
  );
  const help = useCallback(
    () => controller.store.dispatch({ type: 'overlay_opened', overlay: { kind: 'help' } }),
    [controller],
  );
  return (
    <Composer
      onSubmit={submit}
      commands={commands}
      files={files}
      history={history}
      queued={queued}
      waitingFor={waitingFor}
      busy={busy}
      isActive={isActive}
      onHelp={help}
      imageSupport={imageSupport}
      images={images}
    />
  );
});

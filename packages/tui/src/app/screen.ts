/**
 * The screen's composition: the transcript printer drawing with the current theme, keys and view
 * options, and the screen clear that precedes printing a session again.
 */
import { keyLabel, resolveKeyBindings } from '../keys/key-bindings.js';
import { getLoadedHighlighter, loadHighlighter } from '../markdown/highlight.js';
import { resolveTheme } from '../theme/theme.js';
import { needsHighlighter, renderUnits } from './components/print-units.js';
import type { Controller } from './services/controller.js';
import type { TuiMetrics } from './services/metrics.js';
import { TranscriptPrinter } from './services/transcript-printer.js';

/** Clears the screen and its scrollback, cursor home. */
export const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';

/** Quiet time after the last resize event before the session is printed again (a drag sends many). */
export const RESIZE_SETTLE_MS = 120;

/** The printer and where it writes. */
export interface Screen {
  readonly printer: TranscriptPrinter;
  /** Ink's stdout writer (from `useStdout().write`), once the UI is mounted; undefined when it unmounts. */
  setWriter(write: ((data: string) => void) | undefined): void;
  /** Ink drew a frame (its `onRender`); only with `framesReported` (see {@link createScreen}). */
  frameDrawn(): void;
}

/**
 * Wires the printer to the controller: each time the app asks for the session to be printed
 * again (tab switch, new session, view option, Ctrl+L), the screen is cleared and the active
 * session printed from its newest items. With `framesReported`, the caller calls
 * `frameDrawn` after each of Ink's frames, and a session's history is printed after the first
 * frame that shows the session (else after a fixed delay).
 *
 * @example
 * const screen = createScreen(controller, () => process.stdout.columns);
 * render(<AppRoot controller={controller} onWriter={screen.setWriter} />);
 */
export function createScreen(
  controller: Controller,
  columns: () => number,
  metrics?: TuiMetrics,
  options: { readonly framesReported?: boolean } = {},
): Screen {
  const store = controller.store;
  let writer: ((data: string) => void) | undefined;
  const printer = new TranscriptPrinter({
    render: (units) => {
      const { settings, view } = store.getSnapshot();
      return renderUnits(units, {
        columns: Math.max(20, columns()),
        theme: resolveTheme(settings.theme, controller.env),
        bindings: resolveKeyBindings(settings.keys).bindings,
        cwd: controller.active?.session?.state.cwd,
        showThoughts: view.showThoughts,
        expanded: view.expanded,
        highlighter: getLoadedHighlighter(),
      });
    },
    notice: (text) => ({ key: 'earlier', item: { kind: 'info', key: 'earlier', turn: 0, text } }),
    // Only code waits for the highlighter (a session's history is printed as soon as it is shown).
    prepare: (units) =>
      getLoadedHighlighter() || !units.some(needsHighlighter)
        ? undefined
        : loadHighlighter().then(() => undefined),
    onBacklogPrinted: (view) => {
      metrics?.mark('history-printed');
      controller.historyPrinted.printed(view);
    },
    ...(options.framesReported ? { framesReported: true } : {}),
  });
  store.onReprint = () => {
    metrics?.reprinted();
    writer?.(CLEAR_SCREEN);
    const { settings, view } = store.getSnapshot();
    printer.show(controller.active?.view, {
      historyItems: settings.historyItems,
      fullHistory: view.fullHistory,
      menuKey: keyLabel(resolveKeyBindings(settings.keys).bindings, 'app.menu') || 'the menu',
    });
  };
  return {
    printer,
    setWriter(write) {
      writer = write;
      printer.setWriter(write);
    },
    frameDrawn: () => printer.frameDrawn(),
  };
}

/**
 * Prints the session again (screen and scrollback cleared) once the terminal's width has changed.
 * The terminal rewraps what is on screen at the new width, so the live part no longer takes the
 * rows Ink erases to redraw it: a message streaming during a resize would leave stale copies of
 * itself on screen and in the scrollback, in every terminal that reflows (tmux, iTerm2, VTE…).
 * Returns the function that stops watching.
 *
 * @example
 * const off = reprintOnResize(process.stdout, () => store.dispatch({ type: 'reprint' }));
 */
export function reprintOnResize(
  stdout: NodeJS.WriteStream,
  reprint: () => void,
  settleMs = RESIZE_SETTLE_MS,
): () => void {
  let columns = stdout.columns;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onResize = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (stdout.columns === columns) return;
      columns = stdout.columns;
      reprint();
    }, settleMs);
  };
  stdout.on('resize', onResize);
  return () => {
    if (timer) clearTimeout(timer);
    stdout.off('resize', onResize);
  };
}

/**
 * `runTui()`: the `acp` terminal UI. Starts the engine, draws the screens with Ink, and resolves
 * with the exit code when the user quits.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { render, type Instance } from 'ink';
import { remoteEntry, resolveClientPaths, type ClientPaths, type LaunchSpec } from '@acp-kit/client';
import { loadHighlighter } from '../markdown/highlight.js';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { AppRoot } from './components/AppRoot.js';
import { CLEAR_SCREEN, createScreen, reprintOnResize } from './screen.js';
import { FilteredStdin } from './input/filtered-stdin.js';
import { batchedStdout } from './services/batched-stdout.js';
import { Controller, type ResumableSession } from './services/controller.js';
import { terminalInput } from './services/input-activity.js';
import { TuiMetrics } from './services/metrics.js';
import { takeOverPrefix, type EarlyStart } from '../first-frame/early-start.js';
import { commandEntry, type TerminalHandover } from './services/tab-runtime.js';
import { initialAppState } from './state/app-state.js';
import { AppStore } from './state/app-store.js';

/** Options of {@link runTui}: what `acp`, `acp --agent NAME`, `acp -- CMD ARGS`, `--cwd`, `--resume` ask for. */
export interface TuiOptions {
  /** A catalog agent to start at once (`--agent NAME`). */
  readonly agent?: string;
  /** An agent command to start at once (`acp -- CMD ARGS`). */
  readonly command?: readonly string[];
  /** A remote agent to connect to at once (`acp --url URL`). */
  readonly url?: string;
  /** Working directory of new sessions (default: the current one). */
  readonly cwd?: string;
  /** A stored session to reopen (local id, unique prefix, or the agent's session id). */
  readonly resume?: string;
  /** Speak this ACP version only (`--protocol 1|2`). */
  readonly protocol?: 1 | 2;
  /** How to run `acp` itself, for the catalog's `demo` and `acp-kit` agents (the CLI's `selfLaunchSpec()`). */
  readonly self?: LaunchSpec;
  /** Environment (default `process.env`): config/data dirs, PATH for agents, `ACP_KIT_TUI_METRICS_FILE`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Config and data locations (default: from `env`). */
  readonly paths?: ClientPaths;
  readonly stdin?: NodeJS.ReadStream;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
  /** What was drawn and started before the UI was loaded (`tuiMain`), for the UI to take over. */
  readonly early?: EarlyStart;
}

/** Sends console output to a log file (`ACP_KIT_TUI_LOG_FILE`, formerly `ACP_KIT_TUI_LOG`) or nowhere: never onto the UI. */
function guardConsole(env: NodeJS.ProcessEnv): () => void {
  const saved = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
  };
  let file: WriteStream | undefined;
  const logFile = env.ACP_KIT_TUI_LOG_FILE || env.ACP_KIT_TUI_LOG;
  if (logFile) file = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  const sink = (...args: unknown[]): void => {
    file?.write(
      `${new Date().toISOString()} ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`,
    );
  };
  console.log = console.info = console.warn = console.error = console.debug = sink;
  return () => {
    Object.assign(console, saved);
    file?.end();
  };
}

/**
 * Runs the terminal UI until the user quits; resolves with the exit code.
 *
 * @example
 * process.exitCode = await runTui({ agent: 'demo', self: selfLaunchSpec() });
 */
export async function runTui(options: TuiOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const metrics = TuiMetrics.fromEnv(env);
  if (metrics) metrics.watch(stdout);
  const store = new AppStore(initialAppState());
  const drawn = options.early?.drawn;
  // The first frame replaces what was drawn before the UI loaded, in the same write.
  const terminal = batchedStdout(
    stdout,
    drawn ? takeOverPrefix(drawn, stdout.columns, CLEAR_SCREEN) : '',
    CLEAR_SCREEN,
  );
  let ink: Instance | undefined;
  const input = new FilteredStdin(stdin, {
    onKey: () => store.dispatch({ type: 'overlay_opened', overlay: { kind: 'help' } }),
    terminal: stdout,
    onInput: (at: number) => {
      terminalInput.noteInput(at);
      metrics?.inputArrived(at);
    },
  });
  const mount = (): Instance =>
    render(<AppRoot controller={controller} onWriter={screen.setWriter} />, {
      stdin: input as unknown as NodeJS.ReadStream,
      stdout: terminal,
      stderr,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 30,
      incrementalRendering: false,
      onRender: ({ renderTime }: { renderTime: number }) => {
        metrics?.frameRendered(renderTime);
        screen.frameDrawn();
      },
    });
  const handover: TerminalHandover = {
    async run(work, note = "handing the terminal to the agent's sign-in; acp comes back when it ends.") {
      ink?.unmount();
      ink = undefined;
      screen.setWriter(undefined);
      input.suspend();
      stdout.write(`${CLEAR_SCREEN}acp: ${note}\n\n`);
      try {
        return await work();
      } finally {
        stdout.write(CLEAR_SCREEN);
        input.resumeInput();
        ink = mount();
        store.dispatch({ type: 'reprint' });
      }
    },
  };
  const restoreConsole = guardConsole(env);
  const cwd = options.cwd ?? process.cwd();
  const controller = await Controller.create({
    store,
    paths: options.paths ?? resolveClientPaths(env),
    cwd,
    env,
    ...(options.self ? { self: options.self } : {}),
    handover,
    // An OSC 52 copy moves no cursor and draws nothing: written beside Ink's frame, not through it.
    writeTerminal: (data: string) => terminal.write(data),
    ...(metrics ? { metrics } : {}),
    ...(options.early?.agents ? { startAgents: options.early.agents } : {}),
    ...(options.protocol ? { protocolVersion: options.protocol } : {}),
  });
  const screen = createScreen(controller, () => stdout.columns || 80, metrics, { framesReported: true });
  // Opened before the first frame, so that it shows the tab (as the early drawing does).
  start(controller, options);
  ink = mount();
  options.early?.takeOver();
  const stopResizeWatch = reprintOnResize(stdout, () => store.dispatch({ type: 'reprint' }));
  const stopPreload = preloadHighlighter(store);
  const stopOnSignals = stopOnLoss(controller, stdin, stdout);
  try {
    return await controller.exited;
  } finally {
    stopOnSignals.off();
    stopPreload();
    stopResizeWatch();
    ink?.unmount();
    input.suspend();
    // Below the transcript: how to come back to what was worked on. Through Ink's batched stream,
    // after its last frame: written straight to stdout, the frame (flushed in a microtask) could
    // follow and erase it.
    const hint = resumeHint(controller.resumable);
    if (hint) terminal.write(hint);
    restoreConsole();
    metrics?.save();
    stopOnSignals.exitSoon();
  }
}

/**
 * Loads highlight.js (~0.1 s of compiling and registering languages) once a tab's agent is
 * connected, before an answer can hold code: not while the UI starts, where it delayed a stored
 * session's first frame (what is printed or drawn before then loads it itself when it holds code).
 * Returns the function that stops waiting.
 */
function preloadHighlighter(store: AppStore): () => void {
  const unsubscribe = store.subscribe(() => {
    if (!store.getSnapshot().tabs.some((tab) => tab.phase === 'ready')) return;
    unsubscribe();
    void loadHighlighter();
  });
  return unsubscribe;
}

/**
 * `acp --resume ID` for each session that had a turn, printed when the UI ends.
 *
 * @example
 * resumeHint([{ localId: 's-00mwrg', title: 'Fix the parser' }]);
 * // 'Resume this session with: acp --resume s-00mwrg  (Fix the parser)\n'
 */
export function resumeHint(sessions: readonly ResumableSession[]): string {
  const line = ({ localId, title }: ResumableSession): string =>
    `acp --resume ${localId}${title ? `  (${sanitizeInline(title).slice(0, 60)})` : ''}`;
  if (sessions.length === 0) return '';
  if (sessions.length === 1) return `Resume this session with: ${line(sessions[0] as ResumableSession)}\n`;
  return `Resume a session with:\n${sessions.map((session) => `  ${line(session)}\n`).join('')}`;
}

/** Exit codes after a signal: 128 + its number. */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * The one shutdown path of the UI for what ends it from outside: SIGINT, SIGTERM, SIGHUP, and the
 * terminal going away (its input ends or fails, or writing to it fails), counted as SIGHUP. Each
 * quits the app — agents still starting included — and a second one hurries the quit. Once the
 * app has quit after such a stop, nothing may keep the process alive: `exitSoon` ends it if it is
 * still there shortly after.
 */
function stopOnLoss(
  controller: Controller,
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
): { off(): void; exitSoon(): void } {
  let code: number | undefined;
  const stop = (signal: keyof typeof SIGNAL_EXIT_CODES): void => {
    code ??= SIGNAL_EXIT_CODES[signal];
    void controller.quit(code);
  };
  const handlers = Object.keys(SIGNAL_EXIT_CODES).map((name) => {
    const signal = name as keyof typeof SIGNAL_EXIT_CODES;
    const handler = (): void => (signal === 'SIGHUP' ? lost() : stop(signal));
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  // The terminal going away shows up several times (SIGHUP, input ended, writes failing): one stop.
  const lost = (): void => {
    if (code === undefined) stop('SIGHUP');
  };
  stdin.on('end', lost);
  stdin.on('error', lost);
  stdout.on('error', lost);
  return {
    off: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      stdin.off('end', lost);
      stdin.off('error', lost);
      // A dead terminal keeps failing writes: those errors must not crash the exit.
      stdout.on('error', () => undefined);
      stdout.off('error', lost);
    },
    exitSoon: () => {
      const exitCode = code;
      if (exitCode === undefined) return;
      setTimeout(() => process.exit(exitCode), 2000).unref();
    },
  };
}

/**
 * Opens what the options ask for: a stored session, a command, a catalog agent, or the picker. An
 * agent started early goes to the tab of `--agent NAME`; any other start does not need it.
 */
function start(controller: Controller, options: TuiOptions): void {
  const store = controller.store;
  const early = options.early?.agent;
  const agent = options.agent !== undefined ? controller.client.catalog.get(options.agent) : undefined;
  if (options.agent !== undefined && !agent) {
    void early?.discard();
    controller.flash(`No agent named "${options.agent}"; choose one`, 'error');
    store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'start' } });
    return;
  }
  const entry =
    options.url !== undefined
      ? remoteEntry(options.url)
      : options.command && options.command.length > 0
        ? commandEntry(options.command)
        : agent;
  if (entry !== agent || options.resume !== undefined) void early?.discard();
  if (options.resume !== undefined) {
    void controller.openStored(options.resume, entry).then(() => {
      if (store.getSnapshot().tabs.length === 0)
        store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'start' } });
    });
  } else if (entry)
    controller.openAgent(entry, { kind: 'new' }, options.cwd, entry === agent ? early : undefined);
  else store.dispatch({ type: 'overlay_opened', overlay: { kind: 'agents', purpose: 'start' } });
}

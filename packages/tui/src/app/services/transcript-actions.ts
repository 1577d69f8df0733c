/**
 * What the transcript browser does outside the UI: copying a message or code block to the
 * clipboard, and opening a tool call's location in the user's editor. Each says what happened in
 * the one-line flash under the status bar.
 */
import { stat } from 'node:fs/promises';
import { lookupCommand } from '@acp-kit/client';
import type { TuiSettings } from '../settings/settings.js';
import type { BrowseLocation } from '../browse/browse-document.js';
import { copyText } from './clipboard-copy.js';
import { editorFromEnv, editorLaunch, runEditor, type EditorRun } from './editor-launch.js';
import type { TerminalHandover } from './tab-runtime.js';

/** What {@link TranscriptActions} needs from the application. */
export interface TranscriptActionsDeps {
  readonly env: () => NodeJS.ProcessEnv;
  readonly settings: () => TuiSettings;
  readonly flash: (text: string, severity: 'info' | 'warning' | 'error') => void;
  readonly handover: TerminalHandover;
  /** Writes control sequences to the terminal (OSC 52); absent when there is no terminal. */
  readonly writeTerminal?: (data: string) => void;
}

const OUTSIDE = " (outside the session's directories)";

/**
 * @example
 * await actions.copy(unit.copyText, 'code block');
 * await actions.open(unit.locations[0], state.cwd);
 */
export class TranscriptActions {
  /** An editor is being opened: a second `o` typed before the UI stepped aside waits for nothing. */
  private opening = false;

  constructor(private readonly deps: TranscriptActionsDeps) {}

  /** Copies `text`; `what` names it in the notice ("code block"). */
  async copy(text: string, what: string): Promise<void> {
    if (text === '') {
      this.deps.flash(`Nothing to copy: the ${what} is empty`, 'warning');
      return;
    }
    const result = await copyText(text, {
      method: this.deps.settings().clipboard,
      env: this.deps.env(),
      ...(this.deps.writeTerminal ? { writeTerminal: this.deps.writeTerminal } : {}),
    });
    const count = [...text].length;
    if (result.ok)
      this.deps.flash(
        `Copied the ${what}: ${count.toLocaleString('en-US')} character${count === 1 ? '' : 's'} (${result.via})`,
        'info',
      );
    else this.deps.flash(result.message, 'warning');
  }

  /** Opens a location in `$VISUAL` / `$EDITOR` (else vi), at its line; `cwd` is the session's directory. */
  async open(location: BrowseLocation, cwd: string): Promise<void> {
    if (this.opening) return;
    this.opening = true;
    try {
      await this.openEditor(location, cwd);
    } finally {
      this.opening = false;
    }
  }

  private async openEditor(location: BrowseLocation, cwd: string): Promise<void> {
    const { flash } = this.deps;
    try {
      await stat(location.path);
    } catch {
      flash(`${location.label} does not exist (any more)`, 'warning');
      return;
    }
    const env = this.deps.env();
    const editor = editorFromEnv(env);
    const found = await lookupCommand(editor.words[0] ?? 'vi', env, cwd);
    if (!found.found) {
      const why = found.reason === 'not-executable' ? 'is not executable' : 'was not found';
      flash(`The editor ${editor.words[0] ?? 'vi'} (${editor.from}) ${why}: set $VISUAL or $EDITOR`, 'error');
      return;
    }
    const launch = editorLaunch(editor.words, location.path, location.line);
    const spawnable = { ...launch, command: found.path };
    const where = `${location.label}${location.outside ? OUTSIDE : ''}`;
    const run: EditorRun = launch.gui
      ? await runEditor(spawnable, { cwd, env })
      : await this.deps.handover.run(
          () => runEditor(spawnable, { cwd, env }),
          `opening ${location.label} in ${launch.name}; acp comes back when the editor exits.`,
        );
    if (run.kind === 'failed') flash(`Could not start ${launch.name}: ${run.message}`, 'error');
    else if (run.kind === 'exited' && run.code !== 0)
      flash(`${launch.name} exited with ${run.signal ?? `code ${run.code ?? '?'}`} (${where})`, 'warning');
    else flash(`${run.kind === 'started' ? 'Opened' : 'Back from'} ${where} in ${launch.name}`, 'info');
  }
}

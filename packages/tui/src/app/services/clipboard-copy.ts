/**
 * Copying text to the clipboard: through the terminal with OSC 52 (when the user turned it on: not
 * every terminal supports it, some ask first, and it is the way that works over SSH), or with the
 * system's tool found on PATH — `pbcopy` (macOS), `wl-copy` (Wayland), `xclip` or `xsel` (X11),
 * `clip.exe` (Windows, WSL). Tools are picked as `clipboard-image.ts` picks its readers.
 */
import { spawn } from 'node:child_process';
import { which } from '@acp-kit/client';

/** How text is copied: the system's tool, or the terminal (OSC 52). */
export type ClipboardMethod = 'system' | 'osc52';

/** Largest text sent with OSC 52: terminals drop (or choke on) larger ones. */
export const MAX_OSC52_BYTES = 1_000_000;

/**
 * The OSC 52 sequence that sets the clipboard to `text`. Inside tmux it is sent twice: as is, for
 * tmux (`set -g set-clipboard on` stores it and passes it to the outer terminal), and wrapped in a
 * DCS passthrough for the outer terminal itself (`set -g allow-passthrough on`).
 *
 * @example
 * osc52Sequence('hi'); // '\x1b]52;c;aGk=\x07'
 */
export function osc52Sequence(text: string, options: { readonly tmux?: boolean } = {}): string {
  const sequence = `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
  if (!options.tmux) return sequence;
  return `${sequence}\x1bPtmux;${sequence.replaceAll('\x1b', '\x1b\x1b')}\x1b\\`;
}

/** A clipboard tool: its command, arguments, and how it wants the text. */
interface CopyTool {
  readonly command: string;
  readonly args: readonly string[];
  readonly encoding: 'utf8' | 'utf16le';
}

const PBCOPY: CopyTool = { command: 'pbcopy', args: [], encoding: 'utf8' };
const WL_COPY: CopyTool = { command: 'wl-copy', args: [], encoding: 'utf8' };
const XCLIP: CopyTool = { command: 'xclip', args: ['-selection', 'clipboard', '-in'], encoding: 'utf8' };
const XSEL: CopyTool = { command: 'xsel', args: ['--clipboard', '--input'], encoding: 'utf8' };
/** clip.exe reads UTF-16 with a byte order mark; UTF-8 would arrive garbled. */
const CLIP_EXE: CopyTool = { command: 'clip.exe', args: [], encoding: 'utf16le' };

/** The tools this system could use, best first, and what to install when none is there. */
export function copyTools(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): { tools: readonly CopyTool[]; install: string } {
  if (platform === 'darwin') return { tools: [PBCOPY], install: 'pbcopy' };
  if (platform === 'win32') return { tools: [CLIP_EXE], install: 'clip.exe' };
  const tools: CopyTool[] = [];
  if (env.WAYLAND_DISPLAY) tools.push(WL_COPY);
  if (env.DISPLAY) tools.push(XCLIP, XSEL);
  // WSL: Windows' clip.exe is on PATH and sets the Windows clipboard.
  if (env.WSL_DISTRO_NAME || env.WSL_INTEROP) tools.push(CLIP_EXE);
  const install = [env.WAYLAND_DISPLAY ? 'wl-copy' : '', env.DISPLAY ? 'xclip' : '']
    .filter((name) => name !== '')
    .join(' or ');
  return { tools, install: install || 'wl-copy or xclip' };
}

/** What a copy did, in a sentence for people. */
export type CopyResult =
  { readonly ok: true; readonly via: string } | { readonly ok: false; readonly message: string };

/** Options of {@link copyText}. */
export interface CopyOptions {
  readonly method: ClipboardMethod;
  readonly env: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  /** Writes control sequences to the terminal (OSC 52). */
  readonly writeTerminal?: (data: string) => void;
  /** Longest wait for the tool (default 5 s). */
  readonly timeoutMs?: number;
}

/** Runs a copy tool with `text` on its stdin; resolves with an error message, or undefined when it worked. */
function runCopyTool(
  path: string,
  tool: CopyTool,
  text: string,
  options: CopyOptions,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    // xclip, xsel and wl-copy stay in the background to serve the selection: wait for the exit of
    // the command itself, not for its pipes to close.
    const env = { ...options.env, LANG: options.env.LANG || 'en_US.UTF-8' };
    const child = spawn(path, tool.args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (message: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stderr.destroy();
      resolve(message);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(`${tool.command} did not finish within ${Math.round((options.timeoutMs ?? 5000) / 100) / 10} s`);
    }, options.timeoutMs ?? 5000);
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2048) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => finish(`${tool.command} failed: ${error.message}`));
    child.on('exit', (code) => {
      const why = stderr.trim().split('\n')[0]?.slice(0, 200);
      finish(
        code === 0 ? undefined : `${tool.command} exited with code ${code ?? 'none'}${why ? `: ${why}` : ''}`,
      );
    });
    child.stdin.on('error', () => undefined);
    const data =
      tool.encoding === 'utf16le'
        ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
        : Buffer.from(text, 'utf8');
    child.stdin.end(data);
  });
}

/**
 * Copies `text` with the method the user chose. Never throws: the result says what happened, or
 * what to do when nothing could be copied.
 *
 * @example
 * const result = await copyText('npm test', { method: 'system', env: process.env });
 * show(result.ok ? `Copied (${result.via})` : result.message);
 */
export async function copyText(text: string, options: CopyOptions): Promise<CopyResult> {
  if (options.method === 'osc52') {
    if (!options.writeTerminal) return { ok: false, message: 'OSC 52 needs a terminal to write to' };
    if (Buffer.byteLength(text, 'utf8') > MAX_OSC52_BYTES)
      return { ok: false, message: 'Too large to copy with OSC 52 (over 1 MB): terminals drop such copies' };
    options.writeTerminal(osc52Sequence(text, { tmux: Boolean(options.env.TMUX) }));
    return { ok: true, via: 'OSC 52' };
  }
  const { tools, install } = copyTools(options.env, options.platform ?? process.platform);
  if (tools.length === 0) {
    return {
      ok: false,
      message:
        'No clipboard here (no DISPLAY or WAYLAND_DISPLAY): turn on OSC 52 in Settings to copy through the terminal',
    };
  }
  for (const tool of tools) {
    const path = await which(tool.command, options.env);
    if (!path) continue;
    const failed = await runCopyTool(path, tool, text, options);
    return failed === undefined ? { ok: true, via: tool.command } : { ok: false, message: failed };
  }
  return {
    ok: false,
    message: `No clipboard tool found: install ${install}, or turn on OSC 52 in Settings`,
  };
}

/**
 * Reading an image from the system clipboard with the tool the system has: `wl-paste` (Wayland),
 * `xclip` (X11), `pngpaste` or `osascript` (macOS). Each runs as a child process with a timeout
 * and a cap on what it may print; the image type comes from the data's magic bytes.
 */
import { spawn } from 'node:child_process';
import { MAX_IMAGE_BYTES, type ImageReadResult } from '../../composer/image-attachment.js';
import { formatBytes } from '../../text/format.js';
import { imageFromBytes } from './image-files.js';

/** Options of {@link readClipboardImage}. */
export interface ClipboardImageOptions {
  /** Environment of the tools: `PATH` finds them, `WAYLAND_DISPLAY` / `DISPLAY` pick them. */
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  /** Longest wait for each tool (default 5 s). */
  readonly timeoutMs?: number;
  /** Largest image (default {@link MAX_IMAGE_BYTES}). */
  readonly maxBytes?: number;
}

/** How a tool run ended. */
type ToolRun =
  | { readonly kind: 'missing' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'too-large' }
  | {
      readonly kind: 'exited';
      readonly code: number | null;
      readonly stdout: Buffer;
      readonly stderr: string;
    };

interface RunOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** Runs a tool, keeping at most `maxBytes` of its output; killed on timeout or when over the cap. */
function runTool(command: string, args: readonly string[], options: RunOptions): Promise<ToolRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let outcome: ToolRun | undefined;
    const stop = (result: ToolRun): void => {
      outcome ??= result;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop({ kind: 'timeout' }), options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxBytes) stop({ kind: 'too-large' });
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(
        error.code === 'ENOENT' || error.code === 'EACCES'
          ? { kind: 'missing' }
          : { kind: 'exited', code: null, stdout: Buffer.alloc(0), stderr: error.message },
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(outcome ?? { kind: 'exited', code, stdout: Buffer.concat(chunks), stderr });
    });
  });
}

/** A clipboard tool: how it lists what the clipboard holds, and how it prints one type. */
interface ClipboardTool {
  readonly name: string;
  readonly list: readonly string[];
  readonly read: (type: string) => readonly string[];
}

const WL_PASTE: ClipboardTool = {
  name: 'wl-paste',
  list: ['--list-types'],
  read: (type) => ['--no-newline', '--type', type],
};

const XCLIP: ClipboardTool = {
  name: 'xclip',
  list: ['-selection', 'clipboard', '-t', 'TARGETS', '-o'],
  read: (type) => ['-selection', 'clipboard', '-t', type, '-o'],
};

/** Image types asked for, best first. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) ?? '';
}

function noImage(types: readonly string[]): string {
  const text = types.some((type) => type.startsWith('text/') || type === 'UTF8_STRING' || type === 'STRING');
  return text ? 'The clipboard holds text, not an image' : 'The clipboard holds no image';
}

const tooLarge = (maxBytes: number): string =>
  `The clipboard image is over ${formatBytes(maxBytes)}: images are limited to ${formatBytes(maxBytes)}`;

const timedOut = (name: string, timeoutMs: number): string =>
  `${name} did not answer within ${Math.round(timeoutMs / 100) / 10} s`;

/** Reads the image with a Wayland or X11 tool: list the types, then print the best image type. */
async function readWithTool(tool: ClipboardTool, options: RunOptions): Promise<ImageReadResult | 'missing'> {
  const listed = await runTool(tool.name, tool.list, { ...options, maxBytes: 64 * 1024 });
  if (listed.kind === 'missing') return 'missing';
  if (listed.kind === 'timeout') return { ok: false, message: timedOut(tool.name, options.timeoutMs) };
  if (listed.kind === 'too-large' || listed.code !== 0) return { ok: false, message: noImage([]) };
  const types = listed.stdout
    .toString('utf8')
    .split('\n')
    .map((line) => line.trim());
  const type = IMAGE_TYPES.find((candidate) => types.includes(candidate));
  if (!type) return { ok: false, message: noImage(types) };
  const read = await runTool(tool.name, tool.read(type), options);
  if (read.kind === 'missing') return 'missing';
  if (read.kind === 'timeout') return { ok: false, message: timedOut(tool.name, options.timeoutMs) };
  if (read.kind === 'too-large') return { ok: false, message: tooLarge(options.maxBytes) };
  if (read.code !== 0) {
    const why = firstLine(read.stderr);
    return { ok: false, message: `${tool.name} could not read the image${why ? `: ${why}` : ''}` };
  }
  const image = imageFromBytes(read.stdout, 'clipboard', { maxBytes: options.maxBytes });
  if (typeof image === 'string')
    return { ok: false, message: 'The clipboard image is not PNG, JPEG, GIF or WebP' };
  return { ok: true, images: [image] };
}

/** macOS: `pngpaste -` prints the image as PNG; without it, AppleScript prints it as hex. */
async function readOnMac(options: RunOptions): Promise<ImageReadResult> {
  const png = await runTool('pngpaste', ['-'], options);
  if (png.kind === 'timeout') return { ok: false, message: timedOut('pngpaste', options.timeoutMs) };
  if (png.kind === 'too-large') return { ok: false, message: tooLarge(options.maxBytes) };
  if (png.kind === 'exited') {
    if (png.code !== 0) return { ok: false, message: noImage([]) };
    const image = imageFromBytes(png.stdout, 'clipboard', { maxBytes: options.maxBytes });
    return typeof image === 'string' ? { ok: false, message: image } : { ok: true, images: [image] };
  }
  // «data PNGf89504E47…»: two hex digits a byte, plus the wrapper.
  const script = await runTool('osascript', ['-e', 'the clipboard as «class PNGf»'], {
    ...options,
    maxBytes: options.maxBytes * 2 + 64,
  });
  if (script.kind === 'missing') return { ok: false, message: 'No clipboard tool found: install pngpaste' };
  if (script.kind === 'timeout') return { ok: false, message: timedOut('osascript', options.timeoutMs) };
  if (script.kind === 'too-large') return { ok: false, message: tooLarge(options.maxBytes) };
  const hex = /\u00abdata PNGf([0-9A-Fa-f]*)\u00bb/.exec(script.stdout.toString('utf8'))?.[1];
  if (script.code !== 0 || !hex) return { ok: false, message: noImage([]) };
  const image = imageFromBytes(Buffer.from(hex, 'hex'), 'clipboard', { maxBytes: options.maxBytes });
  return typeof image === 'string' ? { ok: false, message: image } : { ok: true, images: [image] };
}

/**
 * Reads the image in the system clipboard. Never throws: when there is no tool, no display, no
 * image, or the image is too large, the result says so in a sentence for people.
 *
 * @example
 * const result = await readClipboardImage({ env: process.env });
 * if (!result.ok) show(result.message);
 */
export async function readClipboardImage(options: ClipboardImageOptions = {}): Promise<ImageReadResult> {
  const env = options.env ?? process.env;
  const run: RunOptions = {
    env,
    timeoutMs: options.timeoutMs ?? 5000,
    maxBytes: options.maxBytes ?? MAX_IMAGE_BYTES,
  };
  const platform = options.platform ?? process.platform;
  if (platform === 'darwin') return readOnMac(run);
  if (platform === 'win32') {
    return {
      ok: false,
      message: 'Reading images from the clipboard is not supported on Windows: paste the file path',
    };
  }
  const tools = [env.WAYLAND_DISPLAY ? WL_PASTE : undefined, env.DISPLAY ? XCLIP : undefined].filter(
    (tool): tool is ClipboardTool => tool !== undefined,
  );
  if (tools.length === 0) {
    return {
      ok: false,
      message:
        'No clipboard to read: neither WAYLAND_DISPLAY nor DISPLAY is set (paste the file path instead)',
    };
  }
  for (const tool of tools) {
    const result = await readWithTool(tool, run);
    if (result !== 'missing') return result;
  }
  const install = tools.map((tool) => (tool === WL_PASTE ? 'wl-clipboard (wl-paste)' : 'xclip')).join(' or ');
  return { ok: false, message: `No clipboard tool found: install ${install}` };
}

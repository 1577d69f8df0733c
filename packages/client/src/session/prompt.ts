/**
 * Building `session/prompt` content for what the agent advertised: files as embedded resources
 * with `embeddedContext`, as links otherwise; images only with the `image` capability; slash
 * commands as text.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentBlock, PromptCapabilities } from '@acp-kit/protocol';
import { ClientError } from '../errors.js';

/** One part of a prompt, as an application gives it. */
export type PromptPart =
  | string
  | { type: 'text'; text: string }
  /** A file to attach (embedded or linked, depending on the agent). */
  | { type: 'file'; path: string; mimeType?: string }
  /** An image: a file, or base64 data with its MIME type. */
  | { type: 'image'; path?: string; data?: string; mimeType?: string }
  /** A slash command the agent advertised, with its input. */
  | { type: 'command'; name: string; input?: string }
  /** A ready-made block (checked against the capabilities). */
  | { type: 'block'; block: ContentBlock };

/** Options of {@link buildPrompt}. */
export interface BuildPromptOptions {
  /** Relative file paths are resolved against it. */
  cwd: string;
  /** Largest file embedded as a resource (default 1 MiB); bigger ones are linked. */
  maxEmbedBytes?: number;
  /** Largest image sent (default {@link MAX_IMAGE_BYTES}); a bigger one fails with `FILE_TOO_LARGE`. */
  maxImageBytes?: number;
}

/** Default largest image a prompt carries (base64 in one JSON-RPC line; models refuse far less). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** A prompt and the adjustments made to fit the agent. */
export interface BuiltPrompt {
  prompt: ContentBlock[];
  /** What was changed, e.g. "image.png sent as a link: the agent does not accept images". */
  notes: string[];
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/**
 * Builds prompt blocks.
 *
 * @example
 * const { prompt } = await buildPrompt(['Explain this', { type: 'file', path: 'src/a.ts' }], caps, { cwd });
 */
export async function buildPrompt(
  parts: readonly PromptPart[],
  capabilities: PromptCapabilities | undefined,
  options: BuildPromptOptions,
): Promise<BuiltPrompt> {
  const caps = capabilities ?? {};
  const out: ContentBlock[] = [];
  const notes: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      out.push({ type: 'text', text: part });
      continue;
    }
    switch (part.type) {
      case 'text':
        out.push({ type: 'text', text: part.text });
        break;
      case 'command':
        out.push({ type: 'text', text: `/${part.name}${part.input ? ` ${part.input}` : ''}` });
        break;
      case 'file':
        out.push(await fileBlock(resolve(options.cwd, part.path), part.mimeType, caps, options, notes));
        break;
      case 'image':
        out.push(await imageBlock(part, caps, options, notes));
        break;
      case 'block':
        out.push(adaptBlock(part.block, caps, notes));
        break;
    }
  }
  return { prompt: out, notes };
}

async function fileBlock(
  path: string,
  mimeType: string | undefined,
  caps: PromptCapabilities,
  options: BuildPromptOptions,
  notes: string[],
): Promise<ContentBlock> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new ClientError('FILE_NOT_FOUND', `cannot attach ${path}: not a file`);
  const uri = pathToFileURL(path).href;
  const link: ContentBlock = {
    type: 'resource_link',
    uri,
    name: basename(path),
    size: info.size,
    ...(mimeType ? { mimeType } : {}),
  };
  if (!caps.embeddedContext) return link;
  if (info.size > (options.maxEmbedBytes ?? 1024 * 1024)) {
    notes.push(`${basename(path)} sent as a link: too large to embed`);
    return link;
  }
  const bytes = await readFile(path);
  if (bytes.includes(0)) {
    notes.push(`${basename(path)} sent as a link: not a text file`);
    return link;
  }
  return {
    type: 'resource',
    resource: { uri, text: bytes.toString('utf8'), ...(mimeType ? { mimeType } : {}) },
  };
}

async function imageBlock(
  part: { path?: string; data?: string; mimeType?: string },
  caps: PromptCapabilities,
  options: BuildPromptOptions,
  notes: string[],
): Promise<ContentBlock> {
  const path = part.path ? resolve(options.cwd, part.path) : undefined;
  const mimeType = part.mimeType ?? (path ? IMAGE_TYPES[extname(path).toLowerCase()] : undefined);
  if (!caps.image) {
    if (path) {
      notes.push(`${basename(path)} sent as a link: the agent does not accept images`);
      return fileBlock(path, mimeType, { ...caps, embeddedContext: false }, options, notes);
    }
    throw new ClientError(
      'CAPABILITY_NOT_SUPPORTED',
      'the agent does not accept images (promptCapabilities.image)',
    );
  }
  if (!mimeType)
    throw new ClientError('INVALID_ARGUMENT', 'an image needs a MIME type (png, jpeg, gif or webp)');
  const maxBytes = options.maxImageBytes ?? MAX_IMAGE_BYTES;
  const name = path ? basename(path) : 'the image';
  const size = part.data !== undefined ? decodedSize(part.data) : path ? (await stat(path)).size : 0;
  if (size > maxBytes) {
    throw new ClientError(
      'FILE_TOO_LARGE',
      `${name} is ${formatSize(size)}: images are limited to ${formatSize(maxBytes)}`,
      { size, limit: maxBytes },
    );
  }
  const data = part.data ?? (path ? (await readFile(path)).toString('base64') : undefined);
  if (!data) throw new ClientError('INVALID_ARGUMENT', 'an image needs a path or data');
  return { type: 'image', data, mimeType, ...(path ? { uri: pathToFileURL(path).href } : {}) };
}

/** Bytes of base64 data, without decoding it. */
function decodedSize(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** 512 B, 12.5 KB, 20 MB. */
function formatSize(bytes: number): string {
  const [value, unit] =
    bytes < 1024 ? [bytes, 'B'] : bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${Math.round(value * 10) / 10} ${unit}`;
}

function adaptBlock(block: ContentBlock, caps: PromptCapabilities, notes: string[]): ContentBlock {
  const type = (block as { type?: unknown }).type;
  if (type === 'resource' && !caps.embeddedContext) {
    const resource = (block as { resource: { uri: string; mimeType?: string | null } }).resource;
    notes.push(`${resource.uri} sent as a link: the agent does not accept embedded context`);
    return { type: 'resource_link', uri: resource.uri, name: resource.uri.split('/').pop() || resource.uri };
  }
  if (type === 'image' && !caps.image) {
    throw new ClientError(
      'CAPABILITY_NOT_SUPPORTED',
      'the agent does not accept images (promptCapabilities.image)',
    );
  }
  if (type === 'audio' && !caps.audio) {
    throw new ClientError(
      'CAPABILITY_NOT_SUPPORTED',
      'the agent does not accept audio (promptCapabilities.audio)',
    );
  }
  return block;
}

/**
 * Images attached to the prompt being composed (pasted or dropped image paths, the clipboard):
 * what the composer holds, the size limits, and how an attachment is labelled.
 */
import type { PromptPart } from '@acp-kit/client';
import { sanitizeInline } from '../sanitize/sanitize-text.js';
import { formatBytes } from '../text/format.js';

/** The image types agents accept (ACP image blocks), detected from the data, not the name. */
export type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** An image waiting in the composer to be sent with the prompt. */
export interface ImageAttachment {
  /** What the chip shows: the file name, or `clipboard`. */
  readonly label: string;
  readonly mimeType: ImageMimeType;
  /** The image, base64. */
  readonly data: string;
  /** Size of the image in bytes. */
  readonly bytes: number;
  /** The absolute path of the file it came from (sent as the block's `uri`). */
  readonly path?: string;
}

/** Whether the session's agent accepts images (`promptCapabilities.image`); `unknown` while it starts. */
export type ImageSupport = 'yes' | 'no' | 'unknown';

/** What reading images gave: the images, or why not (no message: the text was not about images). */
export type ImageReadResult =
  | { readonly ok: true; readonly images: readonly ImageAttachment[] }
  | { readonly ok: false; readonly message?: string };

/** Where the composer gets images from (files and the clipboard are read by services). */
export interface ImageReader {
  /** Reads image files named by pasted text; not ok when one is missing or not an image. */
  readFiles(paths: readonly string[]): Promise<ImageReadResult>;
  /** Reads the image in the system clipboard. */
  readClipboard(): Promise<ImageReadResult>;
}

/** Largest image attached (agents and their models refuse bigger ones long before). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Largest total of the images of one prompt (they travel base64 in one JSON-RPC line). */
export const MAX_PROMPT_IMAGE_BYTES = 50 * 1024 * 1024;

/** Why `added` cannot join `current` in one prompt, or undefined when it can. */
export function attachProblem(
  current: readonly ImageAttachment[],
  added: readonly ImageAttachment[],
): string | undefined {
  const total = [...current, ...added].reduce((sum, image) => sum + image.bytes, 0);
  if (total <= MAX_PROMPT_IMAGE_BYTES) return undefined;
  return `Not attached: the images of one prompt are limited to ${formatBytes(MAX_PROMPT_IMAGE_BYTES)} in all (these would make ${formatBytes(total)})`;
}

const SHORT_TYPES: Readonly<Record<ImageMimeType, string>> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
};

/** The chip of an attachment: `▣ shot.png · PNG 24 KB` (the label is sanitised: file names are untrusted). */
export function attachmentChip(image: ImageAttachment): string {
  return `▣ ${sanitizeInline(image.label)} · ${SHORT_TYPES[image.mimeType]} ${formatBytes(image.bytes)}`;
}

/** The prompt part the engine turns into an ACP image block (`uri` from the path when there is one). */
export function imagePromptPart(image: ImageAttachment): PromptPart {
  return {
    type: 'image',
    data: image.data,
    mimeType: image.mimeType,
    ...(image.path !== undefined ? { path: image.path } : {}),
  };
}

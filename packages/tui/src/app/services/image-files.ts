/**
 * Reading image files for the composer: the type comes from the data's magic bytes (a `.png`
 * that is really a JPEG is sent as a JPEG; a text file named `.png` is refused), and files over
 * the size limit are refused with their size.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  MAX_IMAGE_BYTES,
  type ImageAttachment,
  type ImageMimeType,
  type ImageReadResult,
} from '../../composer/image-attachment.js';
import { formatBytes } from '../../text/format.js';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean {
  return prefix.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((ch) => ch.charCodeAt(0));
}

/**
 * The image type of `bytes` from its magic bytes: PNG, JPEG, GIF or WebP; undefined otherwise.
 *
 * @example
 * sniffImageType(await readFile('shot.png')); // 'image/png'
 */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

/** An image attachment of bytes already read; a message when they are not an image or too large. */
export function imageFromBytes(
  bytes: Buffer,
  label: string,
  options: { path?: string; maxBytes?: number } = {},
): ImageAttachment | string {
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  if (bytes.length > maxBytes)
    return `${label} is ${formatBytes(bytes.length)}: images are limited to ${formatBytes(maxBytes)}`;
  const mimeType = sniffImageType(bytes);
  if (!mimeType) return `${label} is not a PNG, JPEG, GIF or WebP image`;
  return {
    label,
    mimeType,
    data: bytes.toString('base64'),
    bytes: bytes.length,
    ...(options.path !== undefined ? { path: options.path } : {}),
  };
}

/**
 * Reads image files (absolute paths) for attaching. All or nothing: when a path is not a file the
 * result has no message (the pasted text was not a list of images); when a file is too large or
 * not an image, the message says which and why.
 *
 * @example
 * const result = await readImageFiles(['/tmp/shot.png']);
 * if (result.ok) attach(result.images);
 */
export async function readImageFiles(
  paths: readonly string[],
  options: { maxBytes?: number } = {},
): Promise<ImageReadResult> {
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  const images: ImageAttachment[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return { ok: false };
    const label = basename(path);
    // Checked before reading, so a huge file is never loaded.
    if (info.size > maxBytes) {
      return {
        ok: false,
        message: `${label} is ${formatBytes(info.size)}: images are limited to ${formatBytes(maxBytes)}`,
      };
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      return { ok: false, message: `${label} could not be read (${code})` };
    }
    const image = imageFromBytes(bytes, label, { path, maxBytes });
    if (typeof image === 'string') return { ok: false, message: image };
    images.push(image);
  }
  return { ok: true, images };
}

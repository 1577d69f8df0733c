/** The composer's image sources, backed by the file system and the system clipboard. */
import type { ImageReader } from '../../composer/image-attachment.js';
import { readClipboardImage } from './clipboard-image.js';
import { readImageFiles } from './image-files.js';

/**
 * Reads pasted image files and the clipboard's image (its tools found on `env.PATH`).
 *
 * @example
 * <Composer images={createImageReader(process.env)} imageSupport="yes" onSubmit={send} />
 */
export function createImageReader(env: NodeJS.ProcessEnv): ImageReader {
  return {
    readFiles: (paths) => readImageFiles(paths),
    readClipboard: () => readClipboardImage({ env }),
  };
}

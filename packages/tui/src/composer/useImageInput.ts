import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { ComposerAction, ComposerNotice, ComposerState } from './composer-state.js';
import { parseDroppedPaths } from './dropped-paths.js';
import {
  attachProblem,
  type ImageAttachment,
  type ImageReader,
  type ImageReadResult,
  type ImageSupport,
} from './image-attachment.js';

/** What the composer knows about images, read when a key is handled. */
export interface ImageInputOptions {
  readonly imageSupport?: ImageSupport;
  readonly images?: ImageReader;
}

/** Image handling of the composer's keys. */
export interface ImageInput {
  /**
   * Pasted text that is nothing but image paths: attached when the agent accepts images and the
   * files are images (read in the background), else inserted as text with the reason. False when
   * the text is not image paths (the caller inserts it).
   */
  paste(text: string): boolean;
  /** Attaches the image in the system clipboard, or says why it cannot. */
  clipboard(): void;
}

const NOT_ACCEPTED = 'This agent does not accept images';
const NOT_KNOWN_YET = 'The agent is still starting: images can be attached once it says it accepts them';

/**
 * Pasted image paths and the clipboard key. Reads happen in services (`images`); results arrive
 * later and are applied to the composer's state as it is then.
 *
 * @example
 * const images = useImageInput(current, act, latest);
 * if (isPaste && images.paste(text)) return;
 */
export function useImageInput(
  current: RefObject<ComposerState>,
  act: (action: ComposerAction) => void,
  options: RefObject<ImageInputOptions>,
): ImageInput {
  const mounted = useRef(true);
  const reading = useRef(false);
  // Why a paste was kept as text is said once per composer, not at every paste.
  const said = useRef(new Set<string>());
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  return useMemo(() => {
    const notice = (text: string, severity: ComposerNotice['severity'] = 'warning'): void =>
      act({ type: 'notice', notice: { text, severity } });
    const attach = (images: readonly ImageAttachment[]): void => {
      const problem = attachProblem(current.current.attachments, images);
      if (problem) notice(problem);
      else act({ type: 'attach', images });
    };
    return {
      paste(text) {
        const paths = parseDroppedPaths(text);
        if (!paths) return false;
        const { imageSupport = 'no', images } = options.current;
        if (imageSupport !== 'yes' || !images) {
          act({ type: 'insert', text });
          const why = `Kept as text: ${imageSupport === 'unknown' ? NOT_KNOWN_YET.toLowerCase() : NOT_ACCEPTED.toLowerCase()}`;
          if (!said.current.has(why)) {
            said.current.add(why);
            notice(why);
          }
          return true;
        }
        void images.readFiles(paths).then(
          (result) => {
            if (!mounted.current) return;
            if (result.ok) return attach(result.images);
            act({ type: 'insert', text });
            if (result.message) notice(`${result.message} (kept as text)`);
          },
          () => mounted.current && act({ type: 'insert', text }),
        );
        return true;
      },
      clipboard() {
        const { imageSupport = 'no', images } = options.current;
        if (imageSupport !== 'yes' || !images)
          return notice(imageSupport === 'unknown' ? NOT_KNOWN_YET : NOT_ACCEPTED);
        if (reading.current) return;
        reading.current = true;
        notice('Reading the clipboard…', 'info');
        const done = (result: ImageReadResult): void => {
          reading.current = false;
          if (!mounted.current) return;
          if (result.ok) attach(result.images);
          else notice(result.message ?? 'The clipboard holds no image');
        };
        void images
          .readClipboard()
          .then(done, () => done({ ok: false, message: 'The clipboard could not be read' }));
      },
    };
  }, [current, act, options]);
}

/** Streams text the way a model would: word by word, paced so a person can watch it arrive. */
import { abortableDelay } from '../util/abort.js';
import type { MessageWriter } from '../session/turn.js';

/** Splits text into word-sized chunks, keeping the whitespace. */
export function chunksOf(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Writes `text` to `writer` chunk by chunk, waiting `delayMs` between chunks; stops on abort. */
export async function stream(
  writer: MessageWriter,
  text: string,
  delayMs: number,
  signal: AbortSignal,
): Promise<void> {
  for (const chunk of chunksOf(text)) {
    await abortableDelay(delayMs, signal);
    await writer.write(chunk);
  }
}

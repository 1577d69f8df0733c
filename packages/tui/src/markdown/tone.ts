import { createContext, useContext } from 'react';

/** How Markdown text is coloured: normally, or muted and italic (the agent's thoughts). */
export type MarkdownTone = 'normal' | 'muted';

/** Set by a parent (for example a thought block) to mute the Markdown inside it. */
export const MarkdownToneContext = createContext<MarkdownTone>('normal');

/** The current Markdown tone. */
export function useMarkdownTone(): MarkdownTone {
  return useContext(MarkdownToneContext);
}

/** What an empty composer says, apart from its component so that the first frame can draw it without React. */

/** The prompt mark at the start of the composer's first line. */
export const PROMPT_MARK = '› ';

/** The placeholder of an empty composer: with images attached, while a turn runs, or idle. */
export function composerPlaceholder(state: { attachments: number; busy: boolean }): string {
  if (state.attachments > 0) return 'Add a message, or Enter to send the images';
  if (state.busy) return 'The agent is working · type to queue a prompt';
  return 'Message · / for commands · @ to mention a file';
}

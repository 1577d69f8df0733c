/**
 * The text sanitizer lives in `@acp-kit/client` (one sanitizer for every host; imported from the
 * client's small entry, so that what the UI draws before it loads needs no more); the terminal UI
 * adds one rule for what it draws in boxes: an emoji skin-tone modifier is set apart from the emoji
 * it follows (see {@link separateEmojiModifiers}).
 */
import {
  TextSanitizer as PlainTextSanitizer,
  sanitizeInline as plainInline,
  sanitizeText as plainText,
} from '@acp-kit/client/launch';

/** A skin-tone modifier (U+1F3FB–U+1F3FF) as UTF-16: its high surrogate and one of five low ones. */
const MODIFIER_START = '\uD83C';
/** Before a modifier not set apart yet (text is sanitized more than once on its way). */
const BEFORE_MODIFIER = /(?<!\u200b)(?=\uD83C[\uDFFB-\uDFFF])/g;

/**
 * Puts a zero-width space before each emoji skin-tone modifier (👍🏽 → 👍, U+200B, 🏽). Terminals
 * draw such a sequence in 4 cells (tmux, xterm, VTE: the modifier is a wide character of its own)
 * or in 2 (kitty, WezTerm, iTerm2), while Ink lays it out in 2: a line with one then runs past its
 * box, breaking the border and leaving a stale border line behind. Set apart, it is the same 4
 * cells for Ink and in every terminal (the space breaks the grapheme cluster and takes no cell).
 *
 * @example
 * separateEmojiModifiers('👍🏽'); // '👍\u200b🏽'
 */
export function separateEmojiModifiers(text: string): string {
  return text.includes(MODIFIER_START) ? text.replace(BEFORE_MODIFIER, '\u200b') : text;
}

/** {@link plainText} for the terminal UI. */
export function sanitizeText(input: string): string {
  return separateEmojiModifiers(plainText(input));
}

/** {@link plainInline} for the terminal UI. */
export function sanitizeInline(input: string): string {
  return separateEmojiModifiers(plainInline(input));
}

/** The streaming sanitizer, for the terminal UI. */
export class TextSanitizer extends PlainTextSanitizer {
  override write(chunk: string): string {
    return separateEmojiModifiers(super.write(chunk));
  }
}

/**
 * Markdown code spans in one line of text (``Run `ls -la` ``): the pieces in order, each marked as
 * code or not. Without React, so that what the UI draws before it loads (first-frame/) splits a
 * line the same way {@link InlineCode} does.
 *
 * @example
 * codeSpans('run `ls`'); // [{ text: 'run ', code: false }, { text: 'ls', code: true }]
 */
export function codeSpans(text: string): { readonly text: string; readonly code: boolean }[] {
  if (!text.includes('`')) return [{ text, code: false }];
  return text
    .split(/`([^`\n]+)`/)
    .map((part, i) => ({ text: part, code: i % 2 === 1 }))
    .filter((piece) => piece.text !== '');
}

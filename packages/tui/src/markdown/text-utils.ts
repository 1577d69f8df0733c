/** Turning Markdown token strings into safe display text. */
import type { MarkedToken, Token } from 'marked';
import { sanitizeInline, sanitizeText } from '../sanitize/sanitize-text.js';

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  middot: '·',
  times: '×',
  rarr: '→',
  larr: '←',
};

/**
 * Display text of a text token: named character references decoded (the lexer already decodes
 * numeric ones), then sanitized — a reference like `&#27;` must not become a live ESC.
 */
export function displayText(text: string): string {
  const decoded = text.includes('&')
    ? text.replace(/&([a-z]+);/g, (all, name: string) => NAMED[name] ?? all)
    : text;
  return sanitizeText(decoded);
}

/** Display text for code: verbatim apart from sanitizing. */
export function displayCode(text: string): string {
  return sanitizeText(text);
}

/** A URL or title, on one line. */
export function displayUrl(text: string): string {
  return sanitizeInline(text);
}

/** Narrows a lexer token to the known token types (extensions produce generic tokens). */
export function asKnownToken(token: Token): MarkedToken | undefined {
  const known: ReadonlySet<string> = KNOWN_TYPES;
  return known.has(token.type) ? (token as MarkedToken) : undefined;
}

const KNOWN_TYPES = new Set<MarkedToken['type']>([
  'blockquote',
  'br',
  'checkbox',
  'code',
  'codespan',
  'def',
  'del',
  'em',
  'escape',
  'heading',
  'hr',
  'html',
  'image',
  'link',
  'list',
  'list_item',
  'paragraph',
  'space',
  'strong',
  'table',
  'text',
]);

/** The text a link shows after its label: the URL, unless the label already is the URL. */
export function linkSuffix(label: string, href: string): string {
  const url = displayUrl(href);
  return url === '' || url === label || `mailto:${label}` === url ? '' : ` (${url})`;
}

/** The plain text of inline tokens (for measuring table cells). */
export function inlinePlainText(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  let out = '';
  for (const raw of tokens) {
    const token = asKnownToken(raw);
    if (!token) {
      out += displayText(raw.raw);
      continue;
    }
    switch (token.type) {
      case 'codespan':
        out += displayCode(token.text);
        break;
      case 'br':
        out += ' ';
        break;
      case 'link': {
        const label = inlinePlainText(token.tokens);
        out += label + linkSuffix(label, token.href);
        break;
      }
      case 'image':
        out += `[image: ${displayText(token.text)}]`;
        break;
      case 'checkbox':
        break;
      case 'strong':
      case 'em':
      case 'del':
        out += inlinePlainText(token.tokens);
        break;
      case 'text':
        out += token.tokens ? inlinePlainText(token.tokens) : displayText(token.text);
        break;
      case 'escape':
      case 'html':
        out += displayText(token.text);
        break;
      default:
        out += displayText(token.raw);
    }
  }
  return out;
}

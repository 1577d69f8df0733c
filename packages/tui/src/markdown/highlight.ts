/**
 * Syntax highlighting for code blocks with highlight.js, loaded on first use (it costs ~40 ms to
 * load, which the first frame should not pay). Its HTML output is read back into coloured
 * segments mapped to a handful of roles the theme colours.
 */
import type { HLJSApi } from 'highlight.js';

/** What a highlighted piece of code is, coarsely; undefined for plain code. */
export type SyntaxRole =
  | 'keyword'
  | 'string'
  | 'number'
  | 'comment'
  | 'function'
  | 'type'
  | 'variable'
  | 'meta'
  | 'added'
  | 'removed';

/** A run of code with one role. */
export interface CodeSegment {
  readonly text: string;
  readonly role?: SyntaxRole;
}

/** One line of highlighted code. */
export type HighlightedLine = readonly CodeSegment[];

/** A loaded highlighter. */
export interface Highlighter {
  /** Highlights `code`; undefined when the language is not known. */
  highlight(code: string, language: string): HighlightedLine[] | undefined;
}

const SCOPE_ROLES: Readonly<Record<string, SyntaxRole>> = {
  keyword: 'keyword',
  doctag: 'keyword',
  'selector-tag': 'keyword',
  operator: 'keyword',
  built_in: 'type',
  type: 'type',
  class_: 'type',
  string: 'string',
  regexp: 'string',
  symbol: 'string',
  char: 'string',
  link: 'string',
  number: 'number',
  literal: 'number',
  comment: 'comment',
  quote: 'comment',
  title: 'function',
  function_: 'function',
  section: 'function',
  name: 'function',
  'selector-id': 'function',
  'selector-class': 'function',
  attr: 'variable',
  attribute: 'variable',
  variable: 'variable',
  'template-variable': 'variable',
  property: 'variable',
  params: 'variable',
  meta: 'meta',
  tag: 'meta',
  bullet: 'meta',
  addition: 'added',
  deletion: 'removed',
};

/** The role of a highlight.js class list such as `hljs-title function_`. */
export function roleOfScope(classes: string): SyntaxRole | undefined {
  const names = classes.split(/\s+/).map((c) => c.replace(/^hljs-/, ''));
  // Sub-scopes (`class_`, `function_`) are more specific than the main scope.
  for (const name of [...names.slice(1), names[0] ?? '']) {
    const role = SCOPE_ROLES[name];
    if (role) return role;
  }
  return undefined;
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#x27': "'",
  '#39': "'",
};

/** Reads highlight.js HTML (only `<span class>` and five entities) back into lines of segments. */
export function parseHighlightHtml(html: string): HighlightedLine[] {
  const lines: CodeSegment[][] = [[]];
  const stack: (SyntaxRole | undefined)[] = [];
  const pattern = /<span class="([^"]*)">|<\/span>|([^<]+)|</g;
  for (const match of html.matchAll(pattern)) {
    if (match[1] !== undefined) {
      stack.push(roleOfScope(match[1]) ?? stack[stack.length - 1]);
    } else if (match[0] === '</span>') {
      stack.pop();
    } else {
      const text = (match[2] ?? match[0]).replace(
        /&(amp|lt|gt|quot|#x27|#39);/g,
        (_, e: string) => ENTITIES[e] ?? '',
      );
      const role = stack[stack.length - 1];
      text.split('\n').forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part !== '')
          lines[lines.length - 1]?.push(role === undefined ? { text: part } : { text: part, role });
      });
    }
  }
  return lines;
}

function createHighlighter(hljs: HLJSApi): Highlighter {
  return {
    highlight(code, language) {
      if (language === '' || !hljs.getLanguage(language)) return undefined;
      try {
        return parseHighlightHtml(hljs.highlight(code, { language, ignoreIllegals: true }).value);
      } catch {
        return undefined;
      }
    },
  };
}

let loaded: Highlighter | undefined;
let loading: Promise<Highlighter> | undefined;

/** Loads highlight.js (common languages) once; later calls return the same promise. */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('highlight.js/lib/common').then((module) => {
    loaded = createHighlighter(module.default);
    return loaded;
  });
  return loading;
}

/** The highlighter if it has been loaded, without loading it. */
export function getLoadedHighlighter(): Highlighter | undefined {
  return loaded;
}

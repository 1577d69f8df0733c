import { describe, expect, it } from 'vitest';
import { loadHighlighter, parseHighlightHtml, roleOfScope } from './highlight.js';

describe('highlight.js output parsing', () => {
  it('reads nested spans and entities into lines of roles', () => {
    const html =
      '<span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;x&lt;y&amp;&#x27;&quot;</span>;\n' +
      '<span class="hljs-comment">/* two\nlines <span class="hljs-doctag">@todo</span> */</span>';
    expect(parseHighlightHtml(html)).toEqual([
      [
        { text: 'const', role: 'keyword' },
        { text: ' a = ' },
        { text: `"x<y&'"`, role: 'string' },
        { text: ';' },
      ],
      [{ text: '/* two', role: 'comment' }],
      [
        { text: 'lines ', role: 'comment' },
        { text: '@todo', role: 'keyword' },
        { text: ' */', role: 'comment' },
      ],
    ]);
  });

  it('maps scopes, preferring sub-scopes', () => {
    expect(roleOfScope('hljs-title function_')).toBe('function');
    expect(roleOfScope('hljs-title class_')).toBe('type');
    expect(roleOfScope('hljs-unknown')).toBeUndefined();
  });

  it('highlights known languages and declines unknown ones', async () => {
    const highlighter = await loadHighlighter();
    const lines = highlighter.highlight('def f(x):\n    return 1', 'py');
    expect(lines?.[0]?.[0]).toEqual({ text: 'def', role: 'keyword' });
    expect(highlighter.highlight('x', 'no-such-language')).toBeUndefined();
    expect(await loadHighlighter()).toBe(highlighter);
  });
});

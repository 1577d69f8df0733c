import { useEffect, useState } from 'react';
import { getLoadedHighlighter, loadHighlighter, type Highlighter } from './highlight.js';

/**
 * The highlighter, loading it the first time a component that needs it mounts. Until it is
 * loaded (one tick after the first code block appears) code renders plain.
 */
export function useHighlighter(needed: boolean): Highlighter | undefined {
  const [highlighter, setHighlighter] = useState(getLoadedHighlighter);
  useEffect(() => {
    if (!needed || highlighter) return undefined;
    let live = true;
    void loadHighlighter().then((loaded) => {
      if (live) setHighlighter(loaded);
    });
    return () => {
      live = false;
    };
  }, [needed, highlighter]);
  return highlighter;
}

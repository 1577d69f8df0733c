/**
 * The file the demo edits: `ACP_DEMO.md` in the working directory, a log with one section per tour.
 * Created on the first tour (a new-file diff), edited on later ones (a replacement diff).
 */
import { plural } from '../util/text.js';

export const NOTES_FILE = 'ACP_DEMO.md';
const MARKER = '<!-- acp-kit demo: the next section goes above this line -->';

/** What a tour found, recorded in the notes. */
export interface TourFacts {
  prompt: string;
  file?: { path: string; lines: number };
  search?: { pattern: string; matches: string };
}

function section(turn: number, facts: TourFacts): string {
  const lines = [`## Tour ${turn}`, `- Prompt: ${JSON.stringify(facts.prompt)}`];
  if (facts.file) lines.push(`- Read \`${facts.file.path}\` (${plural(facts.file.lines, 'line')} shown)`);
  if (facts.search) lines.push(`- Searched for \`${facts.search.pattern}\`: ${facts.search.matches}`);
  return `${lines.join('\n')}\n`;
}

/** The tool call that records `facts`: `write_file` for a new (or marker-less) file, else `edit_file`. */
export function notesChange(
  existing: string | null,
  facts: TourFacts,
): { tool: 'write_file'; input: { path: string; content: string } } | { tool: 'edit_file'; input: unknown } {
  const turn = (existing?.match(/^## Tour \d+/gm)?.length ?? 0) + 1;
  if (existing !== null && existing.includes(MARKER)) {
    return {
      tool: 'edit_file',
      input: {
        path: NOTES_FILE,
        edits: [{ oldText: MARKER, newText: `${section(turn, facts)}\n${MARKER}` }],
      },
    };
  }
  const header =
    existing ??
    '# acp-kit demo notes\n\nWritten by the acp-kit demo agent (it has no model) to show a real edit going through\nthe permission flow. Delete this file whenever you like.\n';
  return {
    tool: 'write_file',
    input: { path: NOTES_FILE, content: `${header.trimEnd()}\n\n${section(turn, facts)}\n${MARKER}\n` },
  };
}

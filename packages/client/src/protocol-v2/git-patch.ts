/**
 * Splits a git-format patch into its per-file sections, so that each file change of a v2 diff
 * carries the part of the patch about it. The v2 draft has every path in the patch absolute and
 * without git's `a/` and `b/` prefixes; agents that send git's own output name files relative to
 * the repository (`a/src/x.ts`, `b/src/x.ts`), so a section matches a change whose path is, or
 * ends with, the section's path.
 */

/** One file's section of a patch. */
export interface PatchSection {
  /** The section's text, from its `diff --git` line to the next one. */
  text: string;
  /** Whether the section is about the file at `path` (moved or copied from `oldPath`). */
  matches(path: string, oldPath?: string): boolean;
}

const PREFIXED = /^diff --git "?a\/(.+?)"? "?b\/(.+?)"?$/;
const HEADER = /^diff --git (.+)$/;

/** The two paths of a `diff --git` line: git's `a/`/`b/` form, or the v2 draft's absolute paths. */
function headerNames(line: string): [string, string] | undefined {
  const prefixed = PREFIXED.exec(line);
  if (prefixed) return [prefixed[1] as string, prefixed[2] as string];
  const rest = HEADER.exec(line)?.[1];
  if (rest === undefined) return undefined;
  const unquote = (name: string): string =>
    name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1) : name;
  // The same path twice (a changed file): split in the middle, whatever spaces the path holds.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ' && rest.slice(0, half) === rest.slice(half + 1)) {
    const name = unquote(rest.slice(0, half));
    return [name, name];
  }
  // Two absolute paths (a move or a copy): the second starts at the last " /" (or ' "/').
  const at = Math.max(rest.lastIndexOf(' /'), rest.lastIndexOf(' "/'));
  if (at <= 0) return undefined;
  return [unquote(rest.slice(0, at)), unquote(rest.slice(at + 1))];
}

/** The sections of `patch`, in order; text before the first `diff --git` line is dropped. */
export function splitGitPatch(patch: string): PatchSection[] {
  const sections: PatchSection[] = [];
  const lines = patch.split('\n');
  let start = -1;
  let names: [string, string] | undefined;
  const close = (end: number): void => {
    if (start < 0 || !names) return;
    const [from, to] = names;
    const text = lines.slice(start, end).join('\n');
    sections.push({
      text: text.endsWith('\n') || end >= lines.length ? text : `${text}\n`,
      matches: (path, oldPath) =>
        endsWithPath(path, to) && (oldPath === undefined || endsWithPath(oldPath, from)),
    });
  };
  lines.forEach((line, i) => {
    const header = line.startsWith('diff --git ') ? headerNames(line) : undefined;
    if (!header) return;
    close(i);
    start = i;
    names = header;
  });
  close(lines.length);
  return sections;
}

function endsWithPath(absolute: string, relative: string): boolean {
  const a = absolute.replace(/\\/g, '/');
  return a === relative || a.endsWith(`/${relative}`);
}

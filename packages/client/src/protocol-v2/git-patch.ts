/**
 * Splits a git-format patch into its per-file sections, so that each file change of a v2 diff
 * carries the part of the patch about it. A patch names files relative to the repository
 * (`a/src/x.ts`, `b/src/x.ts`) while v2's changes name them absolutely, so a section matches a
 * change whose path ends with the section's path.
 */

/** One file's section of a patch. */
export interface PatchSection {
  /** The section's text, from its `diff --git` line to the next one. */
  text: string;
  /** Whether the section is about the file at `path` (moved or copied from `oldPath`). */
  matches(path: string, oldPath?: string): boolean;
}

const HEADER = /^diff --git (?:"?a\/)(.+?)"? (?:"?b\/)(.+?)"?$/;

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
    const header = HEADER.exec(line);
    if (!header) return;
    close(i);
    start = i;
    names = [header[1] as string, header[2] as string];
  });
  close(lines.length);
  return sections;
}

function endsWithPath(absolute: string, relative: string): boolean {
  const a = absolute.replace(/\\/g, '/');
  return a === relative || a.endsWith(`/${relative}`);
}

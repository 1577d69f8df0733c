/**
 * A file change as a v2 `git_patch` section: Git's `--patch` format with absolute paths and no
 * `a/`/`b/` prefixes, `/dev/null` for the missing side, names quoted as Git quotes them. Made with
 * the `diff` package, which writes Git's headers itself.
 */
import { formatPatch, structuredPatch } from 'diff';
import type { DiffFile } from '../../core/events.js';

/** Lines of context around each change, as Git's default. */
const CONTEXT_LINES = 3;

/**
 * @example
 * gitPatch({ path: '/repo/a.txt', operation: 'add', oldText: null, newText: 'hi\n' });
 * // 'diff --git /repo/a.txt /repo/a.txt\nnew file mode 100644\n--- /dev/null\n+++ /repo/a.txt\n@@ -0,0 +1,1 @@\n+hi\n'
 */
export function gitPatch(file: DiffFile): string {
  const oldName = file.operation === 'add' ? '/dev/null' : (file.oldPath ?? file.path);
  const newName = file.operation === 'delete' ? '/dev/null' : file.path;
  const oldText = file.operation === 'add' ? '' : (file.oldText ?? '');
  const newText = file.operation === 'delete' ? '' : (file.newText ?? '');
  const patch = structuredPatch(oldName, newName, oldText, newText, undefined, undefined, {
    context: CONTEXT_LINES,
  });
  patch.isGit = true;
  patch.isCreate = file.operation === 'add';
  patch.isDelete = file.operation === 'delete';
  patch.isRename = file.operation === 'move';
  return formatPatch(patch);
}

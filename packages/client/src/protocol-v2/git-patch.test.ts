import { describe, expect, it } from 'vitest';
import { splitGitPatch } from './git-patch.js';

describe('splitGitPatch', () => {
  it("reads the v2 draft's form: absolute paths without git's a/ and b/ prefixes", () => {
    const patch = [
      'diff --git /w/my notes.md /w/my notes.md',
      'new file mode 100644',
      '--- /dev/null',
      '+++ /w/my notes.md',
      '@@ -0,0 +1 @@',
      '+hello',
      'diff --git /w/old.txt /w/new dir/new.txt',
      'rename from /w/old.txt',
      'rename to /w/new dir/new.txt',
      '',
    ].join('\n');
    const sections = splitGitPatch(patch);
    expect(sections).toHaveLength(2);
    expect(sections[0]?.matches('/w/my notes.md')).toBe(true);
    expect(sections[0]?.text).toContain('+hello');
    expect(sections[1]?.matches('/w/new dir/new.txt', '/w/old.txt')).toBe(true);
    expect(sections[1]?.matches('/w/my notes.md')).toBe(false);
  });

  it("reads git's own output, paths relative to the repository", () => {
    const [section] = splitGitPatch('diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n');
    expect(section?.matches('/repo/src/a.ts')).toBe(true);
    expect(section?.matches('/repo/src/b.ts')).toBe(false);
  });
});

/**
 * What README and the docs tell a new user to type works from where they stand. Until acp-kit is
 * on the npm registry: the install is the clone's `npm run install:global` (scripts/install.test.ts
 * installs the same way), a line that needs the published package says so, `npx acp` (an unrelated
 * npm package outside a clone) appears only where it is about the clone, and client configurations
 * launch the installed `acp`. The Quick start stays the two commands that work on a fresh clone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './bundle.ts';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
const DOCS = ['README.md', 'docs/agent.md', 'docs/client.md', 'docs/tui.md', 'docs/troubleshooting.md'];

/** The text of a `## heading` section, up to the next heading of that level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The paragraph (text between blank lines) at `index`. */
function paragraphAt(markdown: string, index: number): string {
  const start = markdown.lastIndexOf('\n\n', index);
  const end = markdown.indexOf('\n\n', index);
  return markdown.slice(start < 0 ? 0 : start, end < 0 ? undefined : end);
}

describe('README and the docs, for a new user', () => {
  it('keeps the Quick start to the two commands that work on a fresh clone', () => {
    const blocks = [...section(README, 'Quick start').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toEqual(['npm ci && npx acp --agent demo\nnpm test\n']);
  });

  it('installs from a clone with one command, which exists', () => {
    const install = section(README, 'Install');
    expect(install).toContain('npm ci && npm run install:global');
    expect(install).toContain('npm install -g ./acp-kit-VERSION.tgz');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['install:global']).toBe('tsx scripts/install-global.ts');
  });

  it('says of every line that needs the published package that it does', () => {
    const needsRegistry = /npm (?:install|i) (?:-g |--global )?(?:acp-kit\b|@acp-kit\/)|npx acp-kit/g;
    for (const path of DOCS) {
      const text = read(path);
      for (const match of text.matchAll(needsRegistry)) {
        const paragraph = paragraphAt(text, match.index);
        expect(paragraph, `${path}: ${match[0]}`).toMatch(/published|npm registry/);
      }
    }
  });

  it('uses `npx acp` only about a clone, and no client configuration runs it', () => {
    for (const path of DOCS) {
      const text = read(path);
      for (const match of text.matchAll(/npx acp(?![\w-])/g)) {
        const quickStart =
          path === 'README.md' && section(README, 'Quick start').includes(paragraphAt(text, match.index));
        if (!quickStart) expect(paragraphAt(text, match.index), `${path}: ${match[0]}`).toMatch(/clone/);
      }
      expect(text, path).not.toMatch(/"command":\s*"npx",\s*"args":\s*\["acp"/);
    }
  });
});

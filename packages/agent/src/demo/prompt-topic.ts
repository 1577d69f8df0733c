/**
 * What a prompt names, for the demo tour: the file to read (one attached, or a path or file name
 * the prompt mentions that exists in the workspace) and the words to search for (quoted terms,
 * else the words that are not part of asking). Deterministic and model-free: plain word rules.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ContentBlock } from '../core/events.js';
import { expandFileUri, type Workspace } from '../tools/workspace.js';
import { NOTES_FILE } from './notes.js';

/** Words that ask for something, or are too general to search for ("improve the file"). */
const ASKING = new Set(
  (
    'the and but for nor yet from with without into onto about above below over under than then ' +
    'this that these those there here what which who whom whose where when why how are was were ' +
    'been being its can could would should will shall may might must does did done please thanks ' +
    'thank you your yours mine our ours they them their his her not yes all any some each every ' +
    'more most less much many few just also only very really me my we us it is be do so to of in ' +
    'on at by as an a or if no i ' +
    'show tell explain describe summarise summarize summary improve fix make add remove delete ' +
    'update change edit write rewrite refactor review check look find read list search grep open ' +
    'give help need want like get set use try run create clean tidy format reword polish ' +
    'file files code project repo repository thing things something stuff item items line lines ' +
    'text doc docs document content contents part parts bit section sections paragraph chapter ' +
    'around better good new now'
  ).split(' '),
);

const TERM = /`([^`\n]+)`|"([^"\n]+)"|\u201c([^\u201d\n]+)\u201d/g;
const WORD = /^[A-Za-z_$][\w$-]*$/;
/** A file name (with an extension that starts with a letter), maybe with directories before it. */
const PATH_LIKE = /^(?:\.{0,2}\/)?(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const MAX_WORDS = 3;

/** What the tour reads and searches for. */
export interface PromptTopic {
  /** A workspace-relative (or absolute, when attached) path to read. */
  file?: string;
  /** A named path that is not in the workspace (said in the answer). */
  missing?: string;
  /** Regular expression for `grep`, and whether it ignores case (prose words do). */
  search: { pattern: string; caseInsensitive: boolean };
}

/**
 * The topic of `prompt`; `listed` are the workspace's files as the tour listed them. Names nothing:
 * the first text file listed (a README first) and the prompt's first word of four letters or more,
 * else `TODO`, case-sensitive.
 *
 * @example
 * await promptTopic([{ type: 'text', text: 'improve notes.md' }], ['README.md', 'notes.md'], workspace);
 * // { file: 'notes.md', search: { pattern: 'notes\\.md', caseInsensitive: true } }
 */
export async function promptTopic(
  prompt: readonly ContentBlock[],
  listed: readonly string[],
  workspace: Pick<Workspace, 'cwd' | 'resolve'>,
): Promise<PromptTopic> {
  const text = prompt
    .map((block) => (block.type === 'text' ? (block as { text: string }).text : ''))
    .join('\n');
  const tokens = text.split(/\s+/).map(clean).filter(Boolean);
  const attached = attachedFile(prompt);
  const paths = tokens.filter((token) => PATH_LIKE.test(token) && !/^[a-z]\.[a-z]$/i.test(token));
  let file = attached;
  let named: string | undefined;
  for (const path of attached ? [] : paths) {
    const found = await existingFile(path, listed, workspace);
    if (found) {
      file = found;
      named = path;
      break;
    }
  }
  const missing = file === undefined ? paths[0] : undefined;
  const quoted = [...text.matchAll(TERM)]
    .map((match) => (match[1] ?? match[2] ?? match[3] ?? '').trim())
    .filter((term) => term !== '' && term !== named);
  const words = tokens.filter(
    (token) => token !== named && WORD.test(token) && token.length >= 3 && !ASKING.has(token.toLowerCase()),
  );
  // Else the named path itself: where the workspace mentions it.
  const pathTerm = named ?? paths[0];
  const terms = unique(
    quoted.length > 0 ? quoted : words.length > 0 ? words : pathTerm ? [basename(pathTerm)] : [],
  ).slice(0, MAX_WORDS);
  const search =
    terms.length > 0
      ? { pattern: terms.map(escapeRegExp).join('|'), caseInsensitive: true }
      : { pattern: text.match(/[A-Za-z_][A-Za-z0-9_]{3,}/)?.[0] ?? 'TODO', caseInsensitive: false };
  return {
    ...(file !== undefined ? { file } : { file: fallbackFile(listed) }),
    ...(missing !== undefined ? { missing } : {}),
    search,
  };
}

const TEXT_FILE = /\.(md|txt|ts|tsx|js|mjs|cjs|json|py|rs|go|java|c|h|cpp|rb|sh|toml|ya?ml|html|css)$/i;

/** A README, else the first text file at the top, else any text file listed. */
function fallbackFile(listed: readonly string[]): string | undefined {
  const candidates = listed.filter((file) => file !== NOTES_FILE);
  return (
    candidates.find((file) => /^readme(\.md)?$/i.test(file)) ??
    candidates.find((file) => !file.includes('/') && TEXT_FILE.test(file)) ??
    candidates.find((file) => TEXT_FILE.test(file))
  );
}

function attachedFile(prompt: readonly ContentBlock[]): string | undefined {
  for (const block of prompt) {
    if (block.type === 'resource_link') return expandFileUri((block as { uri: string }).uri);
    if (block.type === 'resource')
      return expandFileUri((block as { resource: { uri: string } }).resource.uri);
  }
  return undefined;
}

/**
 * The file `path` names: a listed path, a file inside the workspace (the listing is capped), or
 * the listed file of that name in some directory (`notes.md` for `docs/notes.md`).
 */
async function existingFile(
  path: string,
  listed: readonly string[],
  workspace: Pick<Workspace, 'cwd' | 'resolve'>,
): Promise<string | undefined> {
  const relative = path.replace(/^\.\//, '');
  if (listed.includes(relative)) return relative;
  const resolved = await workspace.resolve(relative).catch(() => undefined);
  if (resolved?.inside && (await stat(resolved.real).catch(() => undefined))?.isFile()) return relative;
  if (!relative.includes('/')) return listed.find((file) => basename(file) === relative);
  return undefined;
}

/** A word as written, without the quotes, brackets and punctuation around it. */
function clean(token: string): string {
  return token.replace(/^[`'"\u201c\u2018(<[{]+/, '').replace(/[`'"\u201d\u2019)>\]},.:;!?]+$/, '');
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

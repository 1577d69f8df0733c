/**
 * Writes the user already approved: the diffs shown in a permission question they allowed (the
 * agent's `session/request_permission`, or the engine's own question about an `fs/write_text_file`),
 * with what they accepted of each after reviewing its hunks. The write that carries such a diff out
 * needs no second look; a write that differs from it does.
 */
import type { ToolCallContent } from '@acp-kit/protocol';
import { isAbsolute, resolve } from 'node:path';
import type { DiffPlacement } from '../session/diff-placement.js';

/** A change to a file, shown with a permission question. */
export interface ProposedDiff {
  /** Absolute path. */
  path: string;
  /** The text the change replaces (the whole file, or a part of it); null for a new file. */
  oldText: string | null;
  /** The text the agent proposes instead. */
  newText: string;
  /** Where `oldText` is in the file, when it is a part of it (every view numbers its lines from there). */
  placement?: DiffPlacement | null;
}

/** A diff the user allowed, and the text they accepted (`newText` unless they rejected hunks). */
export interface ApprovedDiff extends ProposedDiff {
  acceptedText: string;
}

/**
 * The diffs of a tool call's content, paths made absolute against `cwd`, with their `placements`
 * (indexed as `content`) when given.
 */
export function diffsOfContent(
  content: readonly ToolCallContent[],
  cwd: string,
  placements?: readonly (DiffPlacement | null)[],
): ProposedDiff[] {
  const diffs: ProposedDiff[] = [];
  (content as readonly { type?: unknown; path?: unknown }[]).forEach((item, index) => {
    if (item.type !== 'diff' || typeof item.path !== 'string' || item.path === '') return;
    const { oldText, newText } = item as { oldText?: unknown; newText?: unknown };
    if (typeof newText !== 'string' || (typeof oldText !== 'string' && oldText != null)) return;
    const path = isAbsolute(item.path) ? resolve(item.path) : resolve(cwd, item.path);
    const placement = placements?.[index];
    diffs.push({ path, oldText: oldText ?? null, newText, ...(placement ? { placement } : {}) });
  });
  return diffs;
}

/**
 * The diffs as approved: `acceptedTexts[i]` is what the user kept of `diffs[i]` (a string), else
 * the diff was approved as shown.
 */
export function approveDiffs(
  diffs: readonly ProposedDiff[],
  acceptedTexts: readonly unknown[] | undefined,
): ApprovedDiff[] {
  return diffs.map((diff, i) => {
    const accepted = acceptedTexts?.[i];
    return { ...diff, acceptedText: typeof accepted === 'string' ? accepted : diff.newText };
  });
}

/** `text` with its only occurrence of `part` replaced, or undefined when it is not there exactly once. */
function replaceOnce(text: string, part: string, by: string): string | undefined {
  const at = text.indexOf(part);
  if (part === '' || at < 0 || text.indexOf(part, at + 1) >= 0) return undefined;
  return text.slice(0, at) + by + text.slice(at + part.length);
}

/**
 * Whether writing `content` over `current` is what one approval (the diffs of one question, for
 * this path) allowed; returns what to write then — `content` itself, or the accepted version when
 * the user rejected hunks — and undefined when the write is not what was approved.
 *
 * A diff of the whole file matches when `content` is its new text. A diff of part of a file (an
 * agent's edit of a few lines) matches when applying it, and the other diffs of the same question,
 * to the file as it is turns it into exactly `content`.
 *
 * @example
 * approvedContent('a\nb\n', 'a\nB\n', [{ path, oldText: 'b', newText: 'B', acceptedText: 'B' }]); // 'a\nB\n'
 */
export function approvedContent(
  current: string | null,
  content: string,
  approval: readonly ApprovedDiff[],
): string | undefined {
  const whole = approval.find((diff) => diff.newText === content);
  if (whole) return whole.acceptedText;
  if (current === null || approval.length === 0) return undefined;
  let asked: string | undefined = current;
  let accepted: string | undefined = current;
  for (const diff of approval) {
    if (diff.oldText === null || asked === undefined || accepted === undefined) return undefined;
    asked = replaceOnce(asked, diff.oldText, diff.newText);
    accepted = replaceOnce(accepted, diff.oldText, diff.acceptedText);
  }
  return asked === content ? accepted : undefined;
}

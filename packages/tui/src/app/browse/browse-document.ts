/**
 * A session's transcript as the transcript browser shows it: plain lines (Markdown source, tool
 * output, diffs, terminal output, notices), grouped in the units the user selects — messages,
 * their fenced code blocks, tool calls with their locations, notices. Everything agent-controlled
 * is sanitized here, so what is searched is what is drawn and what is copied.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ContentBlock, ToolCallContent, ToolKind } from '@acp-kit/protocol';
import { isUnknownVariant } from '@acp-kit/protocol';
import {
  toolCallTerminals,
  type DiffPlacement,
  type MessageItem,
  type SessionState,
  type TerminalView,
  type ToolCallItem,
  type TranscriptItem,
} from '@acp-kit/client';
import { findFencedBlocks } from '../../browse/code-fences.js';
import { describeAttachment } from '../../components/attachments.js';
import { messageSegments } from '../../components/message-segments.js';
import { STATUS_ICONS, statusLabel, toolKindIcon } from '../../components/tool-icons.js';
import { diffTextLines } from '../../diff/unified.js';
import { parseTerminalOutput, styledLinesToPlainText } from '../../sanitize/terminal-output.js';
import { sanitizeInline, sanitizeText } from '../../sanitize/sanitize-text.js';
import { expandTabs, splitLines } from '../../text/fold.js';
import { displayPath } from '../../text/paths.js';
import { displayStatus } from '../../view-model/tool-call.js';
import { noticeOf } from '../../view-model/notice.js';

/** What a unit is. */
export type BrowseUnitKind = 'user' | 'agent' | 'thought' | 'tool' | 'code' | 'notice';

/** How a line is drawn. `role` lines (You, Agent) are labels: they are not searched. */
export type BrowseLineStyle =
  'role' | 'title' | 'text' | 'code' | 'location' | 'added' | 'removed' | 'muted' | 'blank';

/** A file a tool call touches, as the agent reported it (ACP lines are 1-based). */
export interface BrowseLocation {
  /** Absolute (a relative path from the agent is taken from the session's directory). */
  readonly path: string;
  readonly line?: number;
  /** The path is outside the session's directories. */
  readonly outside: boolean;
  /** `src/a.ts:12`, relative to the session's directory when inside it (sanitized). */
  readonly label: string;
}

/** A selectable part of the transcript. */
export interface BrowseUnit {
  /** Stable across updates: the item's key, `#code-N` appended for a code block. */
  readonly id: string;
  readonly kind: BrowseUnitKind;
  /** Its lines: `[start, end)` of the document's lines. */
  readonly start: number;
  readonly end: number;
  /** The unit it is part of (a code block's message). */
  readonly parent?: number;
  /** What copying it puts in the clipboard. */
  readonly copyText: string;
  readonly locations: readonly BrowseLocation[];
  /** A code block's language. */
  readonly language?: string;
}

/** One line of the document. */
export interface BrowseLine {
  readonly text: string;
  /** The innermost unit it belongs to (-1: the blank line between units). */
  readonly unit: number;
  readonly style: BrowseLineStyle;
}

/** The whole transcript as lines and units. */
export interface BrowseDocument {
  readonly lines: readonly BrowseLine[];
  readonly units: readonly BrowseUnit[];
}

/** Lines and units of one item, numbered from 0 (joined into the document with offsets). */
interface Chunk {
  readonly lines: BrowseLine[];
  readonly units: BrowseUnit[];
}

const ROLE_LABELS = { user: '› You', agent: '● Agent', thought: '∴ Thought' } as const;

/** Sanitized lines of agent text, tabs expanded. */
function textLines(text: string): string[] {
  return splitLines(sanitizeText(text)).map((line) => expandTabs(line.replace(/\r/g, '')));
}

function attachmentLine(block: ContentBlock): string | undefined {
  const attachment = describeAttachment(block);
  if (!attachment) return undefined;
  return [`${attachment.icon} ${attachment.label}`, ...attachment.details].join(' · ');
}

function messageChunk(item: MessageItem): Chunk {
  const lines: BrowseLine[] = [{ text: ROLE_LABELS[item.role], unit: 0, style: 'role' }];
  const units: BrowseUnit[] = [];
  const copied: string[] = [];
  for (const segment of messageSegments(item.content)) {
    const block = segment.kind === 'block' ? segment.block : undefined;
    const text =
      segment.kind === 'text'
        ? segment.text
        : block && !isUnknownVariant(block) && block.type === 'text'
          ? block.text
          : undefined;
    if (text === undefined) {
      const label = block ? attachmentLine(block) : undefined;
      if (label) lines.push({ text: label, unit: 0, style: 'muted' });
      continue;
    }
    const safe = sanitizeText(text);
    copied.push(safe);
    // Tabs are expanded for display only: a copied code block keeps them.
    const body = splitLines(safe.replace(/\r/g, ''));
    const first = lines.length;
    for (const line of body) lines.push({ text: expandTabs(line), unit: 0, style: 'text' });
    // Code blocks only in the agent's Markdown: what the user typed is shown as typed.
    if (item.role === 'user') continue;
    for (const block of findFencedBlocks(body)) {
      const unit = units.length + 1;
      for (let i = first + block.startLine; i < first + block.endLine; i++) {
        const line = lines[i] as BrowseLine;
        lines[i] = { ...line, unit, style: 'code' };
      }
      units.push({
        id: `${item.key}#code-${unit}`,
        kind: 'code',
        start: first + block.startLine,
        end: first + block.endLine,
        parent: 0,
        copyText: block.code,
        locations: [],
        ...(block.language ? { language: block.language } : {}),
      });
    }
  }
  const message: BrowseUnit = {
    id: item.key,
    kind: item.role,
    start: 0,
    end: lines.length,
    copyText: copied.join('\n'),
    locations: [],
  };
  return { lines, units: [message, ...units] };
}

/** Where the session may work: its directory and the additional ones. */
export interface SessionRoots {
  readonly cwd: string;
  readonly additional: readonly string[];
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** A location of a tool call, resolved against the session's directory and checked against its roots. */
export function browseLocation(
  path: string,
  line: number | null | undefined,
  roots: SessionRoots,
): BrowseLocation {
  const absolute = isAbsolute(path) ? path : resolve(roots.cwd, path);
  const outside = ![roots.cwd, ...roots.additional].some((root) => isInside(absolute, root));
  const valid = typeof line === 'number' && Number.isInteger(line) && line >= 1 ? line : undefined;
  return {
    path: absolute,
    ...(valid !== undefined ? { line: valid } : {}),
    outside,
    label: displayPath(absolute, roots.cwd, valid),
  };
}

function diffLines(
  content: Extract<ToolCallContent, { type: 'diff' }>,
  placement: DiffPlacement | null | undefined,
  cwd: string,
): BrowseLine[] {
  const styles = {
    header: 'muted',
    note: 'muted',
    add: 'added',
    remove: 'removed',
    context: 'text',
  } as const;
  return [
    {
      text: `diff ${displayPath(content.path, cwd)}${content.oldText == null ? ' (new file)' : ''}`,
      unit: 0,
      style: 'muted',
    },
    ...diffTextLines(content.oldText, content.newText, placement).map((line): BrowseLine => ({
      text: line.kind === 'header' ? line.text : expandTabs(sanitizeText(line.text)),
      unit: 0,
      style: styles[line.kind],
    })),
  ];
}

/** The terminals a tool call's card shows: its terminal content, and those the agent runs for it. */
function terminalsOf(item: TranscriptItem, state: SessionState): TerminalView[] {
  return item.kind === 'tool_call' ? toolCallTerminals(state, item) : [];
}

function toolChunk(
  item: ToolCallItem,
  terminals: readonly TerminalView[],
  cwd: string,
  roots: SessionRoots,
): Chunk {
  const status = displayStatus(item);
  const icon = status === 'in_progress' ? '◐' : (STATUS_ICONS[status] ?? '?');
  const label = statusLabel(status);
  const title = sanitizeInline(item.title).trim() || item.toolKind;
  const lines: BrowseLine[] = [
    {
      text: `${icon} ${toolKindIcon(item.toolKind as ToolKind)} ${title}${label ? ` · ${label}` : ''}`,
      unit: 0,
      style: 'title',
    },
  ];
  const locations = item.locations.map((location) => browseLocation(location.path, location.line, roots));
  for (const location of locations) {
    const where = location.outside ? "  (outside the session's directories)" : '';
    lines.push({ text: `  ↳ ${location.label}${where}`, unit: 0, style: 'location' });
  }
  const bodyStart = lines.length;
  item.content.forEach((content, index) => {
    if (isUnknownVariant(content) || content.type === 'terminal') return;
    if (content.type === 'file_change') {
      lines.push({ text: `${content.operation} ${content.path}`, unit: 0, style: 'muted' });
      for (const line of textLines(content.patch ?? '')) lines.push({ text: line, unit: 0, style: 'text' });
    } else if (content.type === 'diff') lines.push(...diffLines(content, item.diffPlacements?.[index], cwd));
    else if (!isUnknownVariant(content.content) && content.content.type === 'text')
      for (const line of textLines(content.content.text)) lines.push({ text: line, unit: 0, style: 'text' });
    else {
      const attachment = attachmentLine(content.content);
      if (attachment) lines.push({ text: attachment, unit: 0, style: 'muted' });
    }
  });
  for (const terminal of terminals) {
    if (terminal.command)
      lines.push({ text: `$ ${sanitizeInline(terminal.command)}`, unit: 0, style: 'muted' });
    const output = styledLinesToPlainText(parseTerminalOutput(terminal.output));
    for (const line of splitLines(output)) lines.push({ text: line, unit: 0, style: 'text' });
  }
  const body = lines.slice(bodyStart).map((line) => line.text);
  const unit: BrowseUnit = {
    id: item.key,
    kind: 'tool',
    start: 0,
    end: lines.length,
    copyText: body.length > 0 ? body.join('\n') : title,
    locations,
  };
  return { lines, units: [unit] };
}

const NOTICE_ICONS = { info: 'ℹ', warning: '⚠', error: '✗' } as const;

function noticeChunk(item: TranscriptItem): Chunk | undefined {
  const notice = noticeOf(item);
  if (!notice) return undefined;
  const { severity, text, detail } = notice;
  const lines: BrowseLine[] = textLines(`${NOTICE_ICONS[severity]} ${text}`).map((line) => ({
    text: line,
    unit: 0,
    style: 'muted',
  }));
  for (const line of detail ? textLines(detail) : [])
    lines.push({ text: `  ${line}`, unit: 0, style: 'muted' });
  const copyText = sanitizeText(detail ? `${text}\n${detail}` : text);
  return {
    lines,
    units: [{ id: item.key, kind: 'notice', start: 0, end: lines.length, copyText, locations: [] }],
  };
}

interface CachedChunk {
  readonly chunk: Chunk | undefined;
  readonly terminals: readonly TerminalView[];
  readonly roots: string;
}

const sameList = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Builds documents for one session's successive states. Items are immutable snapshots, so the
 * chunk of an unchanged item is reused; a tool call is rebuilt when one of its terminals changes.
 *
 * @example
 * const builder = new BrowseDocumentBuilder();
 * const document = builder.build(session.state);
 */
export class BrowseDocumentBuilder {
  private readonly cache = new WeakMap<TranscriptItem, CachedChunk>();

  build(state: SessionState): BrowseDocument {
    const roots: SessionRoots = { cwd: state.cwd, additional: state.additionalDirectories };
    const rootsKey = [roots.cwd, ...roots.additional].join('\0');
    const lines: BrowseLine[] = [];
    const units: BrowseUnit[] = [];
    for (const item of state.items) {
      const terminals = terminalsOf(item, state);
      let cached = this.cache.get(item);
      if (!cached || cached.roots !== rootsKey || !sameList(cached.terminals, terminals)) {
        const chunk =
          item.kind === 'message'
            ? messageChunk(item)
            : item.kind === 'tool_call'
              ? toolChunk(item, terminals, state.cwd, roots)
              : noticeChunk(item);
        cached = { chunk, terminals, roots: rootsKey };
        this.cache.set(item, cached);
      }
      const chunk = cached.chunk;
      if (!chunk) continue;
      const lineOffset = lines.length;
      const unitOffset = units.length;
      for (const line of chunk.lines) lines.push({ ...line, unit: line.unit + unitOffset });
      for (const unit of chunk.units) {
        units.push({
          ...unit,
          start: unit.start + lineOffset,
          end: unit.end + lineOffset,
          ...(unit.parent !== undefined ? { parent: unit.parent + unitOffset } : {}),
        });
      }
      lines.push({ text: '', unit: -1, style: 'blank' });
    }
    return { lines, units };
  }
}

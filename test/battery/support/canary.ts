/**
 * J1: canary secrets. Cases put `ACP-CANARY-<uuid>` values where secrets live (agent env, MCP
 * server env and headers, terminal env, credential-named `_meta` fields, malformed frames) and hand
 * every log line, error, stderr text and output they see to the file's {@link CanaryWatch}; files
 * on disk are scanned too. Prompt text may stay in transcripts by design: canaries registered as
 * prompt canaries are allowed there and only there. Content canaries (agent-sent text) may appear
 * wherever content does (outputs, files), never in logs, stderr or error replies.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@acp-kit/protocol';
import { afterAll, expect } from 'vitest';
import { figure } from './figures.js';

/** Every canary, whatever its uuid. */
export const CANARY_PATTERN = /ACP-CANARY-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A fresh canary value. */
export function newCanary(): string {
  return `ACP-CANARY-${randomUUID()}`;
}

/** Where a canary was found. */
export interface CanaryHit {
  where: string;
  canary: string;
}

/**
 * Files that keep prompt text by design (the documented exceptions): the client's transcript,
 * trace and session index (its title comes from the first prompt), and the agent's session files.
 */
const TRANSCRIPT_FILE =
  /\/sessions\/[^/]+\/(?:events\.jsonl|trace\.jsonl|meta\.json)$|\/agent-data\/sessions\//;

/** Collects what a test file saw and finds canaries in it. */
export class CanaryWatch {
  readonly hits: CanaryHit[] = [];
  private readonly promptCanaries = new Set<string>();
  private readonly contentCanaries = new Set<string>();
  /** How many texts were looked at (reported with the figure). */
  inspected = 0;

  /** A canary that is part of prompt text: allowed in transcript files only. */
  promptCanary(): string {
    const canary = newCanary();
    this.promptCanaries.add(canary);
    return canary;
  }

  /**
   * A canary the agent sends as content (message text, tool titles): it may be shown and stored
   * like any content (outputs, files), but never in logs, stderr or error replies.
   */
  contentCanary(): string {
    const canary = newCanary();
    this.contentCanaries.add(canary);
    return canary;
  }

  /**
   * Looks at one text (or any value, serialised) seen at `where`. `output` marks what shows agent
   * content by design (`acp run` stdout): content canaries are allowed there.
   */
  see(where: string, value: unknown, options: { output?: boolean } = {}): void {
    this.inspected++;
    const text = typeof value === 'string' ? value : safeJson(value);
    for (const match of text.matchAll(CANARY_PATTERN)) {
      if (options.output && this.contentCanaries.has(match[0])) continue;
      this.hits.push({ where, canary: match[0] });
    }
  }

  /** Looks at an error: its message, details, data and causes. */
  seeError(where: string, error: unknown): void {
    let current: unknown = error;
    for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
      if (current instanceof Error) {
        this.see(where, current.message);
        this.see(where, current.stack ?? '');
        const { details, data } = current as { details?: unknown; data?: unknown };
        if (details !== undefined) this.see(where, details);
        if (data !== undefined) this.see(where, data);
        current = current.cause;
      } else {
        this.see(where, current);
        break;
      }
    }
  }

  /** Scans every file under `dir`; prompt canaries are allowed in transcript files. */
  scanTree(dir: string, label = dir): void {
    for (const file of walk(dir)) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      this.inspected++;
      const transcript = TRANSCRIPT_FILE.test(file);
      for (const match of text.matchAll(CANARY_PATTERN)) {
        if (transcript && this.promptCanaries.has(match[0])) continue;
        if (this.contentCanaries.has(match[0])) continue;
        this.hits.push({ where: `${label}${file.slice(dir.length)}`, canary: match[0] });
      }
    }
  }

  /** A logger at debug level whose every line is looked at (J1: the battery runs with debug logging). */
  logger(where: string): Logger {
    return {
      log: (level, message, fields) => this.see(`${where} log (${level})`, { message, fields }),
    };
  }
}

/** JSON that never throws (cycles, BigInt, errors become text). */
export function safeJson(value: unknown): string {
  const seen = new WeakSet<object>();
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => {
        if (typeof v === 'bigint') return `${v}n`;
        if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack };
        if (typeof v === 'object' && v !== null) {
          if (seen.has(v)) return '[cycle]';
          seen.add(v);
        }
        return v;
      }) ?? String(value)
    );
  } catch {
    return String(value);
  }
}

function* walk(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    let info;
    try {
      info = statSync(path);
    } catch {
      continue;
    }
    if (info.isDirectory()) yield* walk(path);
    else if (info.isFile() && info.size < 512 * 1024 * 1024) yield path;
  }
}

/** Records the J1 figure of one test file and returns the hits (the caller asserts none). */
export function canaryFigure(watch: CanaryWatch, label: string): CanaryHit[] {
  figure({
    case: 'J1',
    name: `canary hits: ${label} (${watch.inspected} texts and files looked at)`,
    value: watch.hits.length,
    target: '0',
    pass: watch.hits.length === 0,
  });
  return watch.hits;
}

/**
 * The canary watch of one test file: J1's figure for the file is recorded, and its hits asserted
 * to be none, after the file's last test.
 */
export function fileWatch(label: string): CanaryWatch {
  const watch = new CanaryWatch();
  afterAll(() => {
    expect(canaryFigure(watch, label)).toEqual([]);
  });
  return watch;
}

/**
 * `acp replay`: a recorded trace served as a fake agent. The client under test is expected to
 * send what the recorded client sent, in order; each time it does, the agent's recorded frames
 * that followed are sent back (responses carry the live request's id). Where the client departs
 * from the recording, the replay says so and answers that request with an error, so that a
 * user's bug report becomes a regression test for a client.
 */
import { FrameDecoder, type ByteChannel } from '@acp-kit/protocol';
import { evidenceOf } from '../evidence.js';
import { isObject, type JsonObject } from '../types.js';

/** One line of a trace (`packages/client/src/persistence/trace.ts`, `acp proxy trace`). */
export interface TraceEntry {
  /** `out`: the client sent it; `in`: the agent did. */
  dir: 'in' | 'out';
  frame: JsonObject;
  /** Its line in the file (1-based), for the report. */
  line: number;
}

/** Where the client departed from the recording. */
export interface Divergence {
  /** The trace line of the frame the client was expected to send. */
  line: number;
  expected: string;
  got: string;
}

export interface ReplayReport {
  /** Frames of the recording the client matched, and frames of it in all. */
  matched: number;
  expected: number;
  divergences: Divergence[];
  /** Recorded client frames never sent (the client stopped early). */
  missing: string[];
  /** Requests whose params differ from the recording (method and id matched): where. */
  paramNotes: string[];
}

/** Parses a trace file's text; lines that are not frames (size-limit notes) are skipped. */
export function parseTrace(text: string): TraceEntry[] {
  const entries: TraceEntry[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new SyntaxError(`line ${index + 1} is not JSON: ${evidenceOf(raw)}`);
    }
    if (!isObject(value) || !isObject(value.frame)) continue;
    if (value.dir !== 'in' && value.dir !== 'out') continue;
    entries.push({ dir: value.dir, frame: value.frame, line: index + 1 });
  }
  return entries;
}

function describe(frame: JsonObject): string {
  if (typeof frame.method === 'string')
    return `${'id' in frame ? 'request' : 'notification'} ${frame.method}`;
  return `response to ${JSON.stringify(frame.id)}`;
}

/** Leaf paths where two params differ (at most 5), ignoring `_meta`. */
function differences(a: unknown, b: unknown, path = 'params', out: string[] = []): string[] {
  if (out.length >= 5) return out;
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (key !== '_meta') differences(a[key], b[key], `${path}.${key}`, out);
    }
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, i) => differences(item, b[i], `${path}[${i}]`, out));
  } else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
  return out;
}

/**
 * Serves `entries` on `channel` until the client ends the connection; resolves with the report.
 *
 * @example
 * const report = await replayTrace(parseTrace(await readFile(file, 'utf8')), stdioChannel());
 */
export function replayTrace(entries: readonly TraceEntry[], channel: ByteChannel): Promise<ReplayReport> {
  const expected = entries.filter((entry) => entry.dir === 'out').length;
  const report: ReplayReport = { matched: 0, expected, divergences: [], missing: [], paramNotes: [] };
  /** Recorded request id of the client → the live id, for the recorded responses. */
  const ids = new Map<string, unknown>();
  let next = 0;
  const send = (frame: JsonObject): void => void channel.write(`${JSON.stringify(frame)}\n`);

  /** Sends the agent's recorded frames up to the next frame the client must send. */
  const advance = (): void => {
    while (next < entries.length && entries[next]!.dir === 'in') {
      const { frame } = entries[next++]!;
      const isResponse = frame.method === undefined;
      const live = isResponse ? ids.get(JSON.stringify(frame.id)) : undefined;
      send(isResponse && live !== undefined ? { ...frame, id: live } : frame);
    }
  };

  const onFrame = (text: string): void => {
    let frame: JsonObject;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!isObject(parsed)) return;
      frame = parsed;
    } catch {
      return;
    }
    const wanted = entries[next];
    const matches =
      wanted !== undefined &&
      wanted.frame.method === frame.method &&
      'id' in wanted.frame === 'id' in frame &&
      // A response to the agent's recorded request must carry that request's id.
      (frame.method !== undefined || JSON.stringify(wanted.frame.id) === JSON.stringify(frame.id));
    if (matches) {
      if (typeof frame.method === 'string' && 'id' in frame)
        ids.set(JSON.stringify(wanted.frame.id), frame.id);
      const changed = differences(wanted.frame.params, frame.params);
      if (changed.length > 0 && typeof frame.method === 'string') {
        report.paramNotes.push(`line ${wanted.line} ${frame.method}: ${changed.join(', ')}`);
      }
      report.matched++;
      next++;
      advance();
      return;
    }
    report.divergences.push({
      line: wanted?.line ?? entries.length,
      expected: wanted ? describe(wanted.frame) : 'nothing more (the recording ended)',
      got: `${describe(frame)} ${evidenceOf(frame.params ?? frame.result ?? frame.error ?? null)}`,
    });
    if (typeof frame.method === 'string' && 'id' in frame) {
      send({
        jsonrpc: '2.0',
        id: frame.id,
        error: {
          code: -32603,
          message: `acp replay: the client left the recording (expected ${wanted ? describe(wanted.frame) : 'nothing more'})`,
        },
      });
    }
  };

  return new Promise((resolve) => {
    const decoder = new FrameDecoder({ frame: onFrame, fatal: () => channel.close() });
    channel.start({
      data: (chunk) => decoder.feed(chunk),
      end: () => {
        report.missing = entries
          .slice(next)
          .filter((entry) => entry.dir === 'out')
          .map((entry) => `line ${entry.line}: ${describe(entry.frame)}`);
        resolve(report);
      },
    });
    advance();
  });
}

/** The report for people: one line when the client followed the recording, else where it left it. */
export function formatReplayReport(report: ReplayReport): string {
  const lines = [
    `acp replay: the client sent ${report.matched} of the ${report.expected} recorded client frames`,
  ];
  for (const d of report.divergences)
    lines.push(`  diverged at trace line ${d.line}: expected ${d.expected}, got ${d.got}`);
  if (report.missing.length > 0) lines.push(`  never sent: ${report.missing.slice(0, 5).join('; ')}`);
  for (const note of report.paramNotes.slice(0, 10)) lines.push(`  params differ: ${note}`);
  if (report.divergences.length === 0 && report.missing.length === 0)
    lines.push('  the client followed the recording');
  return `${lines.join('\n')}\n`;
}

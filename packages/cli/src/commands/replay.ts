/**
 * `acp replay FILE`: serves a recorded trace (a session's `trace.jsonl`, or `acp proxy trace`'s
 * file) as a fake agent on stdin/stdout, then reports on stderr where the client left the
 * recording. Exit code 0 when the client sent exactly what was recorded, 1 otherwise.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatReplayReport, parseTrace, replayTrace } from '@acp-kit/check';
import { stdioChannel } from '@acp-kit/protocol/node';
import { EXIT_CODES, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';

export interface ReplayOptions {
  report?: string;
}

export async function replayCommand(file: string, options: ReplayOptions, io: CliIo): Promise<number> {
  const path = resolve(io.cwd, file);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  let entries;
  try {
    entries = parseTrace(text);
  } catch (error) {
    throw new UsageError(`${path} is not a trace: ${(error as Error).message}`);
  }
  if (!entries.some((entry) => entry.dir === 'out')) {
    throw new UsageError(`${path} holds no client frame to replay`, {
      hint: 'a session trace is <data dir>/sessions/<id>/trace.jsonl (acp sessions show ID prints the directory)',
    });
  }
  // stdout carries frames only: the report goes to stderr (and to --report).
  const report = await replayTrace(entries, stdioChannel());
  io.stderr.write(formatReplayReport(report));
  if (options.report)
    await writeFile(resolve(io.cwd, options.report), `${JSON.stringify(report, null, 2)}\n`);
  return report.divergences.length === 0 && report.missing.length === 0 ? EXIT_CODES.OK : EXIT_CODES.ERROR;
}

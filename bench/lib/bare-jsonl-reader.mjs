/**
 * The reopening floor: a bare Node process that reads a session's JSON-lines file and parses every
 * line, nothing else (no acp-kit code, no replay, no display).
 *
 * `node bench/lib/bare-jsonl-reader.mjs FILE` prints one JSON line: the milliseconds since this
 * process started when every line was parsed (as the UI's marks count from its own start), and
 * the number of lines.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

let lines = 0;
for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
  if (line === '') continue;
  JSON.parse(line);
  lines++;
}
console.log(JSON.stringify({ ms: performance.now(), lines }));

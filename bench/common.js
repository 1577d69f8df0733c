/**
 * Shared constants and helpers for the benchmark processes. Every implementation sends the same
 * frames: same session id, same chunk text, same method for the round trip.
 */

export const SESSION_ID = 'sess-bench-0001';
export const MODE_ID = 'code';
export const CWD = '/tmp';
export const MODES = {
  currentModeId: MODE_ID,
  availableModes: [
    { id: 'code', name: 'Code' },
    { id: 'ask', name: 'Ask' },
  ],
};
export const AGENT_INFO = { name: 'bench-agent', version: '0.0.0' };
export const CLIENT_INFO = { name: 'bench-client', version: '0.0.0' };

/** The text of chunk `i`: exactly 60 characters. */
export function chunkText(i) {
  return `chunk ${i} `.padEnd(60, 'lorem ipsum dolor sit amet ');
}

/** A fresh `session/update` params object for chunk `i` (agents build a new object per chunk). */
export function chunkParams(i) {
  return {
    sessionId: SESSION_ID,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunkText(i) } },
  };
}

/** The prompt that asks the bench agent to stream `n` chunks. */
export function promptParams(n) {
  return { sessionId: SESSION_ID, prompt: [{ type: 'text', text: `stream ${n}` }] };
}

/** How many chunks a prompt asks for. */
export function chunksRequested(prompt) {
  const first = prompt[0];
  const m = first && first.type === 'text' ? /^stream (\d+)$/.exec(first.text) : null;
  return m ? Number(m[1]) : 0;
}

/** Peak resident set size of this process, in KiB. */
export function peakRssKiB() {
  return process.resourceUsage().maxRSS;
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Option `--name value` from argv (a string), or `fallback`. */
export function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

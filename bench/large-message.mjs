/**
 * `node bench/large-message.mjs [--quick] [--runs N] [--mib 60]` (one suite of `npm run bench`; after
 * `npm run build`; Linux: it reads /proc)
 *
 * What one large message costs in memory: `acp run` (transcript and trace on, text output) and the
 * bare protocol client (bench/run-flood.mjs `--bare`: `ClientSideConnection` over `spawnPeer`,
 * printing nothing) each receive ONE `session/update` of `--mib` MiB of text (below the 64 MiB
 * frame limit), alternated with an idle run of the same process (a turn without updates). The
 * budget: peak RSS (`VmHWM`) over the idle run's at most 3× the message (issue 17: it was ~9×).
 * The bare client's row says how much of it is the protocol layer's. A third row: `acp run` with
 * the same size of text broken into lines of 80 characters (each line break escaped on the wire:
 * the long string value is then decoded, not just joined, as in battery A4). The protocol client
 * also gets the text in lines, without a trace and with one: a trace hook (`trace`) is given every
 * line's exact text, so a long line's read pieces stay in memory until its frame is handled;
 * without a trace (or with `traceParsedLine`, as `acp run`'s recorder) they go as it is parsed.
 */
import { join } from 'node:path';
import { option } from './common.js';
import { acpRun, measured } from './lib/acp-run.mjs';
import { ROOT, alternate, boundRow, machineInfo, reportVerdicts } from './lib/verdict.mjs';

const quick = process.argv.includes('--quick');
const RUNS = Number(option('--runs', quick ? 1 : 3));
const MIB = Number(option('--mib', 60));
const SIZE = MIB * 2 ** 20;
const FLOOD = join(ROOT, 'bench/run-flood.mjs');

const bare = (n, size, flags = []) =>
  measured([process.execPath, FLOOD, '--bare', String(n), String(size), ...flags]);

const machine = machineInfo();
console.log(
  `large-message: ${machine.cpus}, ${machine.cores} cores, Node ${machine.node}, load ${machine.loadAverage.join(' ')}; ` +
    `one update of ${MIB} MiB, ${RUNS} run(s), alternated with idle runs`,
);
const results = await alternate(
  RUNS,
  {
    idle: () => acpRun(0, 60),
    large: () => acpRun(1, SIZE),
    lines: () => acpRun(1, SIZE, { lines: true }),
    bareIdle: () => bare(0, 60),
    bareLarge: () => bare(1, SIZE),
    bareLines: () => bare(1, SIZE, ['lines']),
    bareTraced: () => bare(1, SIZE, ['lines', 'trace']),
  },
  (name, r) =>
    console.log(`  ${name.padEnd(9)} peak RSS ${r.rssMiB.toFixed(1)} MiB, CPU ${r.cpuS.toFixed(2)} s`),
);
/** Peak RSS over the same run's idle peak, in messages. */
const overIdle = (large, idle) => results[large].map((r, i) => (r.rssMiB - results[idle][i].rssMiB) / MIB);
const goal = { op: '<=', target: 3 };
const rows = [
  boundRow({
    id: 'acp-run-large-message',
    what: `acp run, one ${MIB} MiB update: peak RSS over idle, in messages`,
    unit: 'x the message',
    values: overIdle('large', 'idle'),
    goal,
  }),
  boundRow({
    id: 'acp-run-large-message-lines',
    what: `acp run, one ${MIB} MiB update in lines of 80 characters: peak RSS over idle, in messages`,
    unit: 'x the message',
    values: overIdle('lines', 'idle'),
    goal,
  }),
  boundRow({
    id: 'bare-client-large-message',
    what: `protocol client, one ${MIB} MiB update: peak RSS over idle, in messages`,
    unit: 'x the message',
    values: overIdle('bareLarge', 'bareIdle'),
    goal,
  }),
  boundRow({
    id: 'bare-client-large-message-lines',
    what: `protocol client, one ${MIB} MiB update in lines of 80 characters: peak RSS over idle, in messages`,
    unit: 'x the message',
    values: overIdle('bareLines', 'bareIdle'),
    goal,
  }),
  boundRow({
    id: 'bare-client-large-message-lines-trace',
    what: `protocol client with a trace of exact texts, the same update: peak RSS over idle, in messages`,
    unit: 'x the message',
    values: overIdle('bareTraced', 'bareIdle'),
    // The trace holds the read pieces while the frame is handled: one message more (docs/performance.md).
    goal: { op: '<=', target: 4 },
  }),
];
reportVerdicts('large-message', rows, { mib: MIB, runs: RUNS, results });

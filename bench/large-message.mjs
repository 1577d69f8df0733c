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
 * the long string value is then decoded, not just joined, as in battery A4).
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

const bare = (n, size) => measured([process.execPath, FLOOD, '--bare', String(n), String(size)]);

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
];
reportVerdicts('large-message', rows, { mib: MIB, runs: RUNS, results });

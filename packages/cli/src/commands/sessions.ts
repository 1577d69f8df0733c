/**
 * `acp sessions list|show|delete`: the transcripts acp keeps, and the sessions an agent lists.
 */
import { resolve } from 'node:path';
import {
  AcpClient,
  ClientError,
  describeError,
  resolveClientPaths,
  type SessionState,
  type TranscriptItem,
} from '@acp-kit/client';
import { warningText } from '../errors.js';
import { UsageError } from '../exit-codes.js';
import { oneLine, safe, shortDate, table } from '../format.js';
import type { CliIo } from '../io.js';
import type { OutputFormat } from '../output-format.js';
import { questionWhat } from './permission-text.js';

const NO_SESSION_HINT = '`acp sessions list` shows the recorded sessions and their ids';

async function open(io: CliIo): Promise<AcpClient> {
  return AcpClient.create({
    paths: resolveClientPaths(io.env),
    env: io.env,
    self: io.self,
    mode: 'none',
  });
}

/**
 * `acp sessions list [--all] [--agent NAME [--cwd DIR]] [--format text|json]`. Sessions without a
 * turn (the UI opened on an agent and closed again) are left out unless `--all`.
 */
export async function listSessions(
  options: { agent?: string; format: OutputFormat; cwd?: string; all?: boolean },
  io: CliIo,
): Promise<number> {
  const client = await open(io);
  if (options.agent) return listRemote(client, options.agent, options, io);
  const recorded = await client.transcripts.list();
  const metas = options.all ? recorded : recorded.filter((meta) => meta.turns > 0);
  if (options.format === 'json') {
    io.stdout.write(`${JSON.stringify(metas)}\n`);
    return 0;
  }
  const withoutTurn = recorded.length - metas.length;
  const hidden = `${withoutTurn} without a turn not shown (acp sessions list --all shows them)`;
  if (metas.length === 0) {
    io.stderr.write(
      withoutTurn > 0
        ? `no sessions with a turn yet; ${hidden}\n`
        : 'no sessions yet (acp run records one per run)\n',
    );
    return 0;
  }
  if (withoutTurn > 0) io.stderr.write(`${hidden}\n`);
  const rows = metas.map((m) => [
    m.localId,
    m.agentId ?? '-',
    String(m.turns),
    shortDate(m.updatedAt),
    oneLine(m.title ?? '', 40) || '-',
    m.cwd,
  ]);
  io.stdout.write(table([['ID', 'AGENT', 'TURNS', 'UPDATED', 'TITLE', 'CWD'], ...rows]));
  return 0;
}

async function listRemote(
  client: AcpClient,
  agent: string,
  options: { format: OutputFormat; cwd?: string },
  io: CliIo,
): Promise<number> {
  const cwd = resolve(io.cwd, options.cwd ?? '.');
  const connection = await client.connect(agent, { cwd });
  try {
    if (!connection.features.list)
      throw new ClientError(
        'CAPABILITY_NOT_SUPPORTED',
        `${connection.agent.name} cannot list its sessions (no sessionCapabilities.list)`,
      );
    const sessions = [];
    let cursor: string | undefined;
    do {
      const page = await connection.listSessions({ cwd, ...(cursor ? { cursor } : {}) });
      sessions.push(...page.sessions);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && sessions.length < 10_000);
    if (options.format === 'json') io.stdout.write(`${JSON.stringify(sessions)}\n`);
    else
      io.stdout.write(
        table([
          ['SESSION', 'UPDATED', 'TITLE'],
          ...sessions.map((s) => [
            s.sessionId,
            shortDate(s.updatedAt ?? undefined),
            oneLine(s.title ?? '', 60) || '-',
          ]),
        ]),
      );
    return 0;
  } finally {
    await connection.close();
  }
}

/** `acp sessions show ID [--format text|json]`. */
export async function showSession(id: string, options: { format: OutputFormat }, io: CliIo): Promise<number> {
  const client = await open(io);
  const meta = await client.transcripts.find(id);
  if (!meta) throw new UsageError(`no session matches ${id}`, { hint: NO_SESSION_HINT });
  if (options.format === 'json') {
    const { events } = await client.transcripts.load(meta.localId);
    io.stdout.write(`${JSON.stringify({ meta, events })}\n`);
    return 0;
  }
  const { state } = await client.transcripts.loadState(meta.localId);
  io.stdout.write(`session ${meta.localId}  agent ${meta.agentId ?? '-'}  cwd ${meta.cwd}\n`);
  if (state.title) io.stdout.write(`title: ${oneLine(state.title)}\n`);
  io.stdout.write('\n');
  io.stdout.write(renderTranscript(state));
  return 0;
}

/** The transcript as text. */
export function renderTranscript(state: SessionState): string {
  const out: string[] = [];
  for (const item of state.items) {
    const line = renderItem(item, state.cwd);
    if (line !== undefined) out.push(line);
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

function renderItem(item: TranscriptItem, cwd: string): string | undefined {
  switch (item.kind) {
    case 'message': {
      const text = item.content
        .map((block) => {
          const b = block as { type?: string; text?: string; uri?: string; resource?: { uri?: string } };
          if (b.type === 'text') return b.text ?? '';
          if (b.type === 'resource_link') return `[${b.uri}]`;
          if (b.type === 'resource') return `[${b.resource?.uri ?? 'resource'}]`;
          return `[${b.type ?? 'content'}]`;
        })
        .join('');
      const who = item.role === 'user' ? '> ' : item.role === 'thought' ? '(thinking) ' : '';
      return `${who}${safe(text).trimEnd()}\n`;
    }
    case 'tool_call':
      return `  [${item.toolKind}] ${oneLine(item.title)} — ${item.clientStatus ?? item.status}`;
    case 'permission':
      // As the question showed it: a newline or a zero-width space in the command written as an escape.
      return `  permission ${item.decision}: ${questionWhat(item.request, cwd)}`;
    case 'stop':
      return item.stopReason === 'end_turn' ? undefined : `  (stopped: ${item.stopReason})`;
    case 'error':
      return `  (error: ${oneLine(item.error.message, 200)})`;
    case 'notice':
      return `  notice (${item.severity}): ${oneLine(item.title)}`;
    case 'attached':
      return item.how === 'new' ? undefined : `  (reopened with ${item.agentId}: ${item.how})`;
    default:
      return undefined;
  }
}

/** `acp sessions delete ID [--remote]`. */
export async function deleteSession(id: string, options: { remote?: boolean }, io: CliIo): Promise<number> {
  const client = await open(io);
  const meta = await client.transcripts.find(id);
  if (!meta) throw new UsageError(`no session matches ${id}`, { hint: NO_SESSION_HINT });
  if (options.remote && meta.agentId && meta.agentSessionId) {
    const connection = await client.connect(meta.agentId, { cwd: meta.cwd });
    try {
      if (connection.features.delete) await connection.deleteSession(meta.agentSessionId);
      else
        io.stderr.write(
          warningText(`${connection.agent.name} cannot delete sessions; only the local record is deleted`),
        );
    } catch (error) {
      io.stderr.write(warningText(`the agent could not delete it: ${describeError(error)}`));
    } finally {
      await connection.close();
    }
  }
  await client.transcripts.delete(meta.localId);
  io.stderr.write(`deleted ${meta.localId}\n`);
  return 0;
}

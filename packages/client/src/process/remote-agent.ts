/**
 * A remote agent (an entry with a `url`): nothing is started here; the agent runs where the
 * server runs it (`acp serve` starts one process per connection). The link looks like a local
 * process to `AgentConnection`: a channel, an `exited` promise, `shutdown()` (DELETE or a close
 * frame, after which the server stops the agent). Loaded only when a remote agent is used, so
 * other commands never load the HTTP and WebSocket code.
 */
import type { ByteChannel, ByteSink, CloseDetails } from '@acp-kit/protocol';
import { AGENT_STDERR_NOTIFICATION, type RemoteEvent } from '@acp-kit/protocol/remote';
import { connectRemoteAgent } from '@acp-kit/protocol/remote/node';
import type { AgentEntry } from '../catalog/types.js';
import { ClientError } from '../errors.js';
import type { AgentLink } from './agent-process.js';

/** The variable that holds the token of `--url` agents and of entries without `tokenEnv`. */
export const REMOTE_TOKEN_VARIABLE = 'ACP_KIT_REMOTE_TOKEN';

/** Which profile remote agents use unless their entry says (`auto`, `websocket`, `http`). */
export const REMOTE_TRANSPORT_VARIABLE = 'ACP_KIT_REMOTE_TRANSPORT';
const TRANSPORTS = new Set(['auto', 'websocket', 'http']);

export interface RemoteAgentOptions {
  env?: NodeJS.ProcessEnv;
  /** Connection events (connected, cut, reconnecting, resumed, failed) for status displays. */
  onEvent?: (event: RemoteEvent) => void;
  /** Stops the connecting (a wait for a full server's Retry-After ends at once). */
  signal?: AbortSignal;
}

/** Connects to the entry's URL (WebSocket, else Streamable HTTP); throws AGENT_START_FAILED when it cannot. */
export async function startRemoteAgent(
  entry: AgentEntry,
  options: RemoteAgentOptions = {},
): Promise<AgentLink> {
  const url = entry.url as string;
  const env = options.env ?? process.env;
  const token = entry.token ?? env[entry.tokenEnv ?? REMOTE_TOKEN_VARIABLE] ?? undefined;
  const chosen = entry.transport ?? env[REMOTE_TRANSPORT_VARIABLE];
  if (chosen !== undefined && chosen !== '' && !TRANSPORTS.has(chosen))
    throw new ClientError('INVALID_ARGUMENT', `${REMOTE_TRANSPORT_VARIABLE} must be auto, websocket or http`);
  const profile = chosen ? (chosen as 'auto' | 'websocket' | 'http') : undefined;
  let channel: ByteChannel;
  try {
    channel = await connectRemoteAgent(url, {
      ...(token ? { token } : {}),
      ...(profile ? { profile } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const tokenEnv = entry.tokenEnv ?? REMOTE_TOKEN_VARIABLE;
    throw new ClientError(
      'AGENT_START_FAILED',
      message,
      { url: entry.command, remote: true, tokenEnv },
      error,
    );
  }
  let ended!: (details: CloseDetails) => void;
  const exited = new Promise<CloseDetails>((resolve) => (ended = resolve));
  // The engine's sink, seen on the way: the end of the channel is the end of the "process".
  const link: ByteChannel = {
    start: (sink: ByteSink) =>
      channel.start({
        data: (chunk) => sink.data(chunk),
        end: (details) => {
          ended(details ?? {});
          sink.end(details);
        },
      }),
    write: (text) => channel.write(text),
    drain: () => channel.drain(),
    pause: () => channel.pause(),
    resume: () => channel.resume(),
    close: () => channel.close(),
    get bufferedAmount() {
      return channel.bufferedAmount;
    },
  };
  return {
    channel: link,
    pid: undefined,
    command: entry.command,
    args: [],
    exited,
    remote: { url: entry.command, stderrMethod: AGENT_STDERR_NOTIFICATION },
    shutdown: async () => {
      channel.close();
      // A closed channel ends at once (the engine gets its end); the server stops the agent.
      ended({});
      return exited;
    },
  };
}

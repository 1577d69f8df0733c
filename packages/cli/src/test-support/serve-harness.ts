/** `acp serve` run in-process for tests, stopped with a fake Ctrl-C. */
import { runCli, type CliResult, type TestHome } from './cli-harness.js';

export interface Served {
  url: string;
  /** The URL of the `connect:` line (what a user copies). */
  connect: string;
  token?: string;
  stop(): Promise<CliResult>;
  stderr(): string;
}

/** Starts `acp serve ARGS --port 0` in-process; resolves once it printed its URL. */
export async function startServe(
  home: TestHome,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Served> {
  Object.assign(home.env, env);
  let stop!: () => void;
  let stderr = '';
  let resolveUrl!: (value: { url: string; connect: string; token?: string }) => void;
  const ready = new Promise<{ url: string; connect: string; token?: string }>(
    (resolve) => (resolveUrl = resolve),
  );
  const result = runCli(['serve', '--port', '0', ...args], home, {
    onStdout: (text, interrupt) => {
      stop = interrupt;
      const url = /at (http:\/\/\S+\/acp)/.exec(text)?.[1];
      const token = /^token: (\S+)$/m.exec(text)?.[1];
      const connect = /^connect: acp --url (\S+)/m.exec(text)?.[1];
      if (url && connect) resolveUrl({ url, connect, ...(token ? { token } : {}) });
    },
    onStderr: (text) => (stderr = text),
  });
  const { url, connect, token } = await Promise.race([
    ready,
    result.then((r) => {
      throw new Error(`acp serve ended: ${r.code} ${r.stderr}`);
    }),
  ]);
  return {
    url,
    connect,
    ...(token ? { token } : {}),
    stop: () => {
      stop();
      return result;
    },
    stderr: () => stderr,
  };
}

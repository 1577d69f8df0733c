/**
 * A TCP proxy on 127.0.0.1 that tests use to break connections the way real proxies do: `cut()`
 * drops every connection at once; `blackhole()` drops the client side but keeps reading (and
 * discarding) what the server sends, as a proxy that died half-way would, so the server thinks it
 * delivered events that never arrived. `hold()` makes new connections wait until `release()`.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttingProxy {
  readonly port: number;
  /** `http://127.0.0.1:PORT/acp`. */
  readonly url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  cut(): void;
  blackhole(): void;
  hold(): void;
  release(): void;
  /** Resolves once the server's bytes swallowed by the blackhole contain `text`. */
  swallowed(text: string): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttingProxy(targetPort: number, path = '/acp'): Promise<CuttingProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let held = false;
  const waiting: (() => void)[] = [];
  let swallowedText = '';
  const watchers: { text: string; resolve: () => void }[] = [];
  let accepted = 0;

  const server: Server = createServer((client) => {
    accepted++;
    client.on('error', () => undefined);
    const begin = (): void => {
      const upstream = connect(targetPort, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      const pair = { client, upstream };
      pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      const forget = (): void => {
        pairs.delete(pair);
      };
      client.once('close', () => {
        forget();
        if (!upstream.destroyed && upstream.listenerCount('data') === 0) upstream.destroy();
      });
      upstream.once('close', () => {
        forget();
        client.destroy();
      });
    };
    if (held) waiting.push(begin);
    else begin();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const check = (): void => {
    for (const watcher of [...watchers]) {
      if (swallowedText.includes(watcher.text)) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
    }
  };

  return {
    port,
    url: `http://127.0.0.1:${port}${path}`,
    get accepted() {
      return accepted;
    },
    cut() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    blackhole() {
      for (const { client, upstream } of pairs) {
        upstream.unpipe(client);
        client.unpipe(upstream);
        client.destroy();
        // The server keeps writing and believes it was delivered.
        upstream.on('data', (chunk: Buffer) => {
          swallowedText += chunk.toString('utf8');
          if (swallowedText.length > 1 << 20) swallowedText = swallowedText.slice(-(1 << 19));
          check();
        });
        upstream.resume();
      }
      pairs.clear();
    },
    hold() {
      held = true;
    },
    release() {
      held = false;
      for (const begin of waiting.splice(0)) begin();
    },
    swallowed(text) {
      return new Promise((resolve) => {
        watchers.push({ text, resolve });
        check();
      });
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The cookies a remote server sets (the RFD asks clients to keep them for the connection, for
 * sticky sessions behind load balancers): one endpoint, so names and values only; `Max-Age=0` or
 * a past `Expires` removes one. Runtime-neutral.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Takes the `Set-Cookie` values of a response. */
  store(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key, raw] = attribute.split('=').map((part) => part.trim());
        if (key?.toLowerCase() === 'max-age') return Number(raw) <= 0;
        if (key?.toLowerCase() === 'expires') return Date.parse(raw ?? '') < Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The `Cookie` header to send, if any. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  clear(): void {
    this.cookies.clear();
  }
}

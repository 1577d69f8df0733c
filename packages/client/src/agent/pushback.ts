/**
 * What the next message from an agent must wait for: hosts that cannot keep up (a slow stdout)
 * and recordings that lag behind (see `AgentConnection.addBackpressure`).
 */

/** A source of backpressure: a promise while it is backed up, else undefined. */
export type BackpressureSource = () => Promise<void> | undefined;

/**
 * @example
 * const pushback = new Pushback();
 * pushback.add(() => output.pressure());
 * const wait = pushback.wait([session]); // undefined when nobody is backed up
 */
export class Pushback {
  private readonly sources = new Set<BackpressureSource>();

  /** Adds a source; returns the function that removes it. */
  add(source: BackpressureSource): () => void {
    this.sources.add(source);
    return () => void this.sources.delete(source);
  }

  /** One promise for every source (and session recording) that is backed up, or undefined. */
  wait(sessions: Iterable<{ recordingPressure(): Promise<void> | undefined }>): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const source of this.sources) {
      const wait = source();
      if (wait) (waits ??= []).push(wait);
    }
    for (const session of sessions) {
      const wait = session.recordingPressure();
      if (wait) (waits ??= []).push(wait);
    }
    if (!waits) return undefined;
    return waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);
  }
}

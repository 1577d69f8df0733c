/**
 * A tiny typed event emitter: no Node dependency, listeners that throw never break the emitter.
 */

/** Unsubscribes the listener it was returned for. */
export type Unsubscribe = () => void;

/**
 * Typed events: `Events` maps each event name to its payload type.
 *
 * @example
 * const events = new Emitter<{ exit: { code: number } }>();
 * const off = events.on('exit', ({ code }) => console.log(code));
 * events.emit('exit', { code: 0 });
 * off();
 */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof Events>(name: K, listener: (payload: Events[K]) => void): Unsubscribe {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  /** Calls every listener of `name` with `payload`; a listener that throws is skipped. */
  emit<K extends keyof Events>(name: K, payload: Events[K]): void {
    const set = this.listeners.get(name);
    if (!set || set.size === 0) return;
    for (const listener of [...set]) {
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch {
        // A broken listener must not stop the engine or the other listeners.
      }
    }
  }

  /** Whether `name` has listeners. */
  has(name: keyof Events): boolean {
    return (this.listeners.get(name)?.size ?? 0) > 0;
  }
}

/**
 * A stand-in for `new Intl.Segmenter(...)` that makes the real one on first use (see
 * lazy-intl.ts). The first segmenter a process makes loads ICU's break data (10-16 ms on the
 * machine of docs/performance.md), and the bundle's dependencies made theirs at their module's top
 * level, so every start of the terminal UI paid it before its first render, though plain and
 * simple text is measured without one (string-width-fast.ts).
 */
export class LazySegmenter {
  private segmenter: Intl.Segmenter | undefined;
  private readonly locales: ConstructorParameters<typeof Intl.Segmenter>[0];
  private readonly options: ConstructorParameters<typeof Intl.Segmenter>[1];

  constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) {
    [this.locales, this.options] = args;
  }

  private get real(): Intl.Segmenter {
    return (this.segmenter ??= new Intl.Segmenter(this.locales, this.options));
  }

  segment(input: string): Intl.Segments {
    return this.real.segment(input);
  }

  resolvedOptions(): Intl.ResolvedSegmenterOptions {
    return this.real.resolvedOptions();
  }
}

/**
 * A stand-in for `new Intl.Segmenter(...)` that makes the real one on first use (see
 * lazy-intl.ts). The first segmenter a process makes loads ICU's break data (10-16 ms on the
 * machine of docs/performance.md), and the bundle's dependencies made theirs at their module's top
 * level, so every start of the terminal UI paid it before its first render, though plain and
 * simple text is measured without one (string-width-fast.ts).
 *
 * Text of ASCII characters only is split into graphemes without it (each character is one, but a
 * CR LF pair: Unicode's rules GB3-GB5), so that a frame of plain text and SGR sequences (which
 * Ink's tokenizer splits with a segmenter) never loads the data: the first frame did.
 */
export class LazySegmenter {
  private segmenter: Intl.Segmenter | undefined;
  private readonly locales: ConstructorParameters<typeof Intl.Segmenter>[0];
  private readonly options: ConstructorParameters<typeof Intl.Segmenter>[1];
  private readonly graphemes: boolean;

  constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) {
    [this.locales, this.options] = args;
    this.graphemes = (this.options?.granularity ?? 'grapheme') === 'grapheme';
  }

  private get real(): Intl.Segmenter {
    return (this.segmenter ??= new Intl.Segmenter(this.locales, this.options));
  }

  segment(input: string): Intl.Segments {
    const text = String(input);
    return this.graphemes && isAscii(text) ? new AsciiGraphemes(text) : this.real.segment(text);
  }

  resolvedOptions(): Intl.ResolvedSegmenterOptions {
    return this.real.resolvedOptions();
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The graphemes of an ASCII text, as `Intl.Segmenter` gives them. */
class AsciiGraphemes implements Intl.Segments {
  constructor(private readonly input: string) {}

  /** The length of the grapheme that starts at `index`. */
  private lengthAt(index: number): number {
    return this.input.charCodeAt(index) === 0x0d && this.input.charCodeAt(index + 1) === 0x0a ? 2 : 1;
  }

  private data(index: number): Intl.SegmentData {
    const { input } = this;
    return { segment: input.slice(index, index + this.lengthAt(index)), index, input };
  }

  containing(codeUnitIndex?: number): Intl.SegmentData | undefined {
    const n = Math.trunc(Number(codeUnitIndex ?? 0)) || 0;
    if (n < 0 || n >= this.input.length) return undefined;
    const inPair = n > 0 && this.input.charCodeAt(n) === 0x0a && this.input.charCodeAt(n - 1) === 0x0d;
    return this.data(inPair ? n - 1 : n);
  }

  *[Symbol.iterator](): IterableIterator<Intl.SegmentData> {
    for (let index = 0; index < this.input.length; index += this.lengthAt(index)) yield this.data(index);
  }
}

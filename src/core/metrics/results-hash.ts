import type { RunExecutor } from '../run/choose';
import { APP_VERSION } from '../version';

// The results hash a permalink may carry: a 48-bit digest of every run's J curve
// rounded to 1e-6, together with the executor/backend that computed it and the app version.
// Two runs that print the same digest computed the same curves to six decimals.

export interface ResultsHash {
  /** 12 hex digits. */
  digest: string;
  /** "cpu" or "tensor-<backend>": the CPU executor computes the same numbers everywhere. */
  by: string;
  app: string;
}

export type JCurve = ArrayLike<number | null>;

export const executorTag = (executor: RunExecutor, backend: string | null): string =>
  executor === 'tensor' ? `tensor-${backend ?? 'unknown'}` : executor;

/** A double's bits as two 32-bit words. */
const BITS = new Float64Array(1);
const WORDS = new Int32Array(BITS.buffer);

/** Two 32-bit multiply-xorshift lanes (cyrb53-style mixing), fed 32-bit words. */
export class Digest {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;
  word(w: number): void {
    this.h1 = Math.imul(this.h1 ^ w, 2654435761);
    this.h2 = Math.imul(this.h2 ^ w, 1597334677);
  }
  text(s: string): void {
    this.word(s.length);
    for (let i = 0; i < s.length; i++) this.word(s.charCodeAt(i));
  }
  /** A value rounded to 1e-6; null and non-finite values (a diverged run) as one marker, as the result JSON writes them. */
  value(v: number | null): void {
    if (v === null || !Number.isFinite(v)) {
      this.word(0x7ff80001);
      this.word(0x7ff80001);
      return;
    }
    const q = Math.round(v * 1e6) + 0; // + 0 turns −0 into 0
    if (Math.abs(q) >= 2 ** 53) {
      // |v| ≥ about 9e9: 1e-6 is below a double's resolution there, and the two words below would
      // wrap (every |v| past about 2e19 gave the same words); the value's own bits, marked
      BITS[0] = v;
      this.word(0x7ff80002);
      this.word(WORDS[0]!);
      this.word(WORDS[1]!);
      return;
    }
    const hi = Math.floor(q / 4294967296);
    this.word(hi | 0);
    this.word((q - hi * 4294967296) | 0);
  }
  /**
   * value() of each entry of a curve, in order, with the state in locals: the digest of a
   * result's J curves is computed once per result, mostly before V8 has optimized it, and a call
   * per word cost about 10 ms for the default experiment's 144 runs. The rare entries (null,
   * non-finite, |J|·10⁶ ≥ 2⁵³) go through value().
   */
  values(J: JCurve): void {
    let h1 = this.h1, h2 = this.h2;
    for (let i = 0; i < J.length; i++) {
      const v = J[i];
      const q = v === null || !Number.isFinite(v) ? NaN : Math.round(v * 1e6) + 0;
      if (!(Math.abs(q) < 2 ** 53)) {
        this.h1 = h1;
        this.h2 = h2;
        this.value(v);
        h1 = this.h1;
        h2 = this.h2;
        continue;
      }
      const hi = Math.floor(q / 4294967296);
      const w1 = hi | 0;
      const w2 = (q - hi * 4294967296) | 0;
      h1 = Math.imul(h1 ^ w1, 2654435761);
      h2 = Math.imul(h2 ^ w1, 1597334677);
      h1 = Math.imul(h1 ^ w2, 2654435761);
      h2 = Math.imul(h2 ^ w2, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
  hex(): string {
    let h1 = this.h1, h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 16).toString(16).padStart(4, '0');
  }
}

/**
 * Digest of an experiment's J curves: `curves[a][s]` is algorithm a's seed s, each with
 * iterations + 1 values (null or NaN once a run diverged).
 */
export function resultsHash(ids: string[], curves: JCurve[][], by: string, app = APP_VERSION): ResultsHash {
  const d = new Digest();
  d.text(by);
  d.text(app);
  d.word(ids.length);
  ids.forEach((id, a) => {
    d.text(id);
    const runs = curves[a] ?? [];
    d.word(runs.length);
    for (const J of runs) {
      d.word(J.length);
      d.values(J);
    }
  });
  return { digest: d.hex(), by, app };
}

/** Why a digest differs from the one a link carries (null when they match). */
export function explainMismatch(expected: ResultsHash, got: ResultsHash): string | null {
  if (expected.digest === got.digest && expected.by === got.by && expected.app === got.app) return null;
  if (expected.by !== got.by)
    return `the link's results were computed by ${expected.by}, these by ${got.by}; different executors or backends round differently, so the digests cannot be compared (force ${expected.by} to check)`;
  if (expected.app !== got.app)
    return `the link's results come from version ${expected.app} of the explorer, these from ${got.app}; the engine may have changed between versions`;
  return `the curves differ: same executor (${got.by}) and version (${got.app}), but the digest is ${got.digest}, not ${expected.digest}`;
}

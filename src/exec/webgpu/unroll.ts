// Unrolls the kernel's short counted loops (`for (var j = 0u; j < V; j++) { … }` with a constant
// bound) into copies of their body, each in its own block with the counter as a literal. Why: on
// SwiftShader (Chromium without a GPU) a loop iteration costs tens of CPU cycles of bookkeeping
// (the active-lane mask, its test, the loop's variables kept in memory), and an index computed
// from a counter is a gather over the SIMD group where a literal one is a plain load; the kernel
// runs thousands of loops of 1 to 13 iterations per iteration of a run. The same operations on the
// same values in the same order: the numbers do not change.

/** Loops of at most this many iterations are unrolled… */
export const UNROLL_MAX_TRIPS = 16;
/** …when their copies together stay under this many characters (the JIT's compile time grows with the source). */
export const UNROLL_MAX_CHARS = 6000;

const HEAD = /for \(var ([A-Za-z_]\w*) = 0u; \1 < ([A-Za-z_]\w*|\d+u?); \1\+\+\) \{/g;

/** The index just past the brace that closes the one opened at `open`. */
function closing(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === '{') depth++;
    else if (src[i] === '}' && --depth === 0) return i + 1;
  }
  throw new Error('unroll: unbalanced braces in the WebGPU kernel');
}

/** The body without the bodies of loops nested in it (their break and continue are their own). */
function ownLevel(body: string): string {
  let out = body;
  for (;;) {
    const m = /\b(for|while|loop)\b[^{;]*\{/.exec(out);
    if (!m) return out;
    const open = m.index + m[0].length - 1;
    out = out.slice(0, m.index) + out.slice(closing(out, open));
  }
}

/** The `const NAME = 12u;` declarations of the source, by name. */
function constants(src: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of src.matchAll(/^const ([A-Za-z_]\w*) = (\d+)u;/gm)) out.set(m[1]!, Number(m[2]));
  return out;
}

/** One loop's copies, or null where it may not be unrolled (a break, continue or return of its own, its counter written, too long). */
function unrolled(name: string, trips: number, body: string): string | null {
  if (trips > UNROLL_MAX_TRIPS || trips * body.length > UNROLL_MAX_CHARS) return null;
  if (/\b(break|continue|return)\b/.test(ownLevel(body))) return null;
  const use = new RegExp(`(?<![.\\w])${name}\\b`, 'g');
  if (new RegExp(`(?<![.\\w])${name}\\s*(=[^=]|\\+=|-=|\\*=|/=|\\+\\+|--)`).test(body)) return null;
  if (new RegExp(`\\b(var|let)\\s+${name}\\b`).test(body)) return null;
  const copies: string[] = [];
  for (let k = 0; k < trips; k++) copies.push(`{${body.replace(use, `${k}u`)}}`);
  return copies.join(' ');
}

/** The source with every counted loop of a constant bound that qualifies unrolled, innermost first. */
export function unrollLoops(src: string): string {
  const known = constants(src);
  let out = src;
  // innermost first: a loop is unrolled once no unrollable loop is left inside it
  for (let changed = true; changed; ) {
    changed = false;
    const heads = [...out.matchAll(HEAD)];
    for (let h = heads.length - 1; h >= 0; h--) {
      const m = heads[h]!;
      const open = m.index! + m[0].length - 1;
      const end = closing(out, open);
      const body = out.slice(open + 1, end - 1);
      if (HEAD.test(body)) {
        HEAD.lastIndex = 0;
        continue; // an inner loop first (it may stay a loop: then so does this one, on the next pass)
      }
      HEAD.lastIndex = 0;
      const bound = m[2]!;
      const trips = /^\d/.test(bound) ? parseInt(bound, 10) : known.get(bound);
      if (trips === undefined) continue;
      const copies = unrolled(m[1]!, trips, body);
      if (copies === null) continue;
      out = out.slice(0, m.index!) + copies + out.slice(end);
      changed = true;
      break;
    }
  }
  return out;
}

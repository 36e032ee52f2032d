// A few WebAssembly opcodes and the binary module layout, enough for exact mode's kernels
// (exact-kernel.ts): hand-written functions, so no compiler is needed at build time.

export type Code = readonly (number | Code)[];

export function uleb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

function sleb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

const f64le = (x: number) => Array.from(new Uint8Array(new Float64Array([x]).buffer));

export const I32 = 0x7f;
export const F64 = 0x7c;

/** Instructions (https://webassembly.github.io/spec/core/binary/instructions.html). */
export const op = {
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  tee: (i: number) => [0x22, ...uleb(i)],
  call: (f: number) => [0x10, ...uleb(f)],
  i32: (v: number) => [0x41, ...sleb(v)],
  i64: (v: number) => [0x42, ...sleb(v)],
  f64: (x: number) => [0x44, ...f64le(x)],
  i32load: (offset = 0) => [0x28, 2, ...uleb(offset)],
  i32store: (offset = 0) => [0x36, 2, ...uleb(offset)],
  f64load: (offset = 0) => [0x2b, 3, ...uleb(offset)],
  f64store: (offset = 0) => [0x39, 3, ...uleb(offset)],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  ifF64: [0x04, F64],
  else: 0x05,
  end: 0x0b,
  brIf: (depth: number) => [0x0d, depth],
  return: 0x0f,
  select: 0x1b,
  i32eqz: 0x45,
  i32eq: 0x46,
  i32ne: 0x47,
  i32ltS: 0x48,
  i32gtS: 0x4a,
  i32geS: 0x4e,
  i32add: 0x6a,
  i32sub: 0x6b,
  i32mul: 0x6c,
  i32and: 0x71,
  i32or: 0x72,
  i32xor: 0x73,
  i32shl: 0x74,
  i32shrS: 0x75,
  i64or: 0x84,
  i64shl: 0x86,
  i64shrU: 0x88,
  i32wrapI64: 0xa7,
  i64extendI32U: 0xad,
  i64reinterpretF64: 0xbd,
  f64eq: 0x61,
  f64ne: 0x62,
  f64lt: 0x63,
  f64gt: 0x64,
  f64le: 0x65,
  f64abs: 0x99,
  f64add: 0xa0,
  f64sub: 0xa1,
  f64mul: 0xa2,
  f64div: 0xa3,
  f64min: 0xa4,
  f64max: 0xa5,
  i32truncF64S: 0xaa,
  i64extendI32S: 0xac,
  f64convertI32S: 0xb7,
  f64reinterpretI64: 0xbf,
} as const;

export interface Func {
  params: number[];
  /** Result types (none or one). */
  results: number[];
  /** Extra locals' types, in order after the parameters. */
  locals: number[];
  body: Code;
  /** Exported under this name, or not exported. */
  export?: string;
}

/** Functions imported before those a module defines (moduleBytes): exp, log. */
export const IMPORTED = 2;

const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];

/**
 * A module importing memory "m"."mem" and the functions "m"."exp" and "m"."log" (f64 → f64,
 * indices 0 and 1), then defining `funcs` (indices 2, 3, …).
 */
export function moduleBytes(funcs: Func[]): Uint8Array<ArrayBuffer> {
  const types = [[0x60, 1, F64, 1, F64], ...funcs.map((f) => [0x60, ...uleb(f.params.length), ...f.params, ...uleb(f.results.length), ...f.results])];
  const imports = [
    [...name('m'), ...name('mem'), 0x02, 0x00, 0x01],
    [...name('m'), ...name('exp'), 0x00, 0x00],
    [...name('m'), ...name('log'), 0x00, 0x00],
  ];
  const exports = funcs.flatMap((f, i) => (f.export ? [[...name(f.export), 0x00, ...uleb(i + IMPORTED)]] : []));
  const bodies = funcs.map((f) => {
    const groups: number[][] = [];
    for (const t of f.locals) {
      const last = groups[groups.length - 1];
      if (last && last[1] === t) last[0]++;
      else groups.push([1, t]);
    }
    const code = [...vec(groups.map(([n, t]) => [...uleb(n), t])), ...((f.body as unknown[]).flat(Infinity) as number[]), op.end];
    return [...uleb(code.length), ...code];
  });
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(2, vec(imports)),
    ...section(3, vec(funcs.map((_, i) => uleb(i + 1)))), // type i + 1 (type 0 is the imports')
    ...section(7, vec(exports)),
    ...section(10, vec(bodies)),
  ]);
}

// The WebGPU executor's kernel (WGSL): a whole iteration of one tabular run per invocation, K
// iterations per dispatch, every run of the experiment in one dispatch. It follows the CPU
// executor step for step (src/exec/cpu/iterate.ts, rules.ts; src/exec/host/*), in f32:
//   1. θ_old ← θ, log Z_old (snapshotOld);
//   2. the batch, its weights and advantages Â_i (kernel-batch.ts: exact enumeration, or sampled
//      groups); token advantage γ^(T−1−t)·Â_i (tokenAdvantages);
//   3. the policy gradient at θ_old and its norm, reported (policyGradientNorm);
//   4. the rule (kernel-rules.ts: applyRule);
//   5. KL(π_old ‖ π_new) over the visits, then exact J, entropy, P(optimal token) per turn and J per
//      context of the new policy, written as one record of the iteration (kernel-eval.ts).
// Sizes are baked into the source (one pipeline per experiment shape); every offset and enum code
// comes from layout.ts.

import { batchSource } from './kernel-batch';
import { EVALUATION } from './kernel-eval';
import { mlpSource } from './kernel-mlp';
import { policySource } from './kernel-policy';
import { rulesSource } from './kernel-rules';
import { loopsTestedAtTheEnd } from './loops';
import { adamWords, ALGO_WORDS, scratchWords, thetaWords, turnTableOffsets, wgslConstants, type KernelShape } from './layout';

/**
 * Runs per workgroup: the largest power of two from 4 to 64 that still leaves at least 64
 * workgroups (4 below that). One invocation runs one run from start to end, and an adapter runs a
 * workgroup's invocations together on one of its cores or compute units, so with few runs small
 * workgroups spread them over more of them (SwiftShader: one CPU thread per workgroup; a
 * hardware GPU has tens to a hundred-odd compute units).
 */
export function workgroupSize(runs: number): number {
  let wg = 64;
  while (wg > 4 && Math.ceil(runs / wg) < 64) wg /= 2;
  return wg;
}

/** A number as a WGSL f32 literal (always with a decimal point or exponent). */
const wgslFloat = (v: number) => (Number.isInteger(v) ? `${v}.0` : String(v));
const u32Array = (xs: readonly number[]) => `array<u32, ${xs.length}>(${xs.map((o) => `${o}u`).join(', ')})`;

/**
 * Bytes a run's own state (scratch, θ, Adam block, algorithm record) may take to be copied into
 * private memory for a dispatch; WGSL allows 8,192 bytes in the private address space, and the
 * MLP's activations and the kernel's other private variables need some of them. A table's kernel
 * has a few dozen bytes of other private variables, so its state may take more (PRIVATE_TABLE_BYTES:
 * exact two-prompts, 6.6 KB with log π_old per token, stays on the copies).
 */
export const PRIVATE_STATE_BYTES = 6144;
export const PRIVATE_TABLE_BYTES = 7680;

/** Whether the kernel of this shape computes on private copies of each run's state (PRIVATE_COPIES below). */
export function usesPrivateState(s: KernelShape): boolean {
  return 4 * (scratchWords(s) + thetaWords(s) + adamWords(s) + ALGO_WORDS) <= (s.mlp ? PRIVATE_STATE_BYTES : PRIVATE_TABLE_BYTES);
}

/** The whole kernel for one experiment shape (its loops testing their condition at the end: loops.ts). */
export function kernelSource(s: KernelShape): string {
  const priv = usesPrivateState(s);
  const body = [RANDOM, policySource(s), batchSource(s.sampled), s.mlp ? mlpSource(s.mlp) : '', rulesSource(s), iterationSource(s), EVALUATION].join('\n');
  return loopsTestedAtTheEnd([header(s), BINDINGS, priv ? PRIVATE_COPIES : '', priv ? onPrivateCopies(body) : body, entrySource(s, priv)].join('\n'));
}

// Each run's scratch, θ, Adam block and algorithm record in private memory for the whole dispatch
// (loaded at its start, stored at its end), where they fit: on SwiftShader (Chromium without a
// GPU) every read and write of a storage buffer is a bounds-checked gather or scatter over the
// invocations of a SIMD group, and the kernel makes thousands per iteration; on private copies
// the default sampled experiment took 30% less of SwiftShader's CPU time (11.5 → 8 ms per
// iteration, 8 iterations per dispatch). The numbers are the same: the same operations on the same values.
const PRIVATE_COPIES = /* wgsl */ `
var<private> sp: array<f32, SW>;    // scr[sb + ·]
var<private> tp: array<f32, TH>;    // theta[r · TH + ·]
var<private> ap: array<f32, ADAMW>; // adam[mb + ·]
var<private> al: array<f32, AW>;    // algos[ab + ·]
`;

/** Every index of a run's block of scr, theta, adam and algos (always written from its base: sb, lb, wb, mb, ab) onto the private copy. */
const PER_RUN: readonly [string, string][] = [
  ['scr[sb + ', 'sp['],
  ['theta[lb + ', 'tp[TH_LOGITS + '],
  ['theta[wb + ', 'tp[TH_W + '],
  ['adam[mb + ', 'ap['],
  ['algos[ab + ', 'al['],
];

function onPrivateCopies(body: string): string {
  let out = body;
  for (const [from, to] of PER_RUN) out = out.split(from).join(to);
  const left = /\b(scr|theta|adam|algos)\[[^\]\n]{0,40}/.exec(out);
  if (left) throw new Error(`the WebGPU kernel indexes a run's buffer other than from the run's base (${left[0]}): write it as ${PER_RUN.map(([f]) => `${f}…`).join(', ')}`);
  return out;
}

/** The shape and layout constants, and the few the shape decides that are not offsets. */
function header(s: KernelShape): string {
  const turnTables = turnTableOffsets(s).offsets;
  return /* wgsl */ `${wgslConstants(s)}
const TOFF = ${u32Array(turnTables.length ? turnTables : [0])};
const OFFSET = ${u32Array(s.offset)};
const PER_TURN = ${s.perTurn}; const SAMPLED = ${s.sampled}; const GAMMA = ${wgslFloat(s.gamma)};
const SHARED = ${!!s.shared}; const DISCOUNTED = ${!!s.discounted};
const NORM_EPS = 1e-6; const B1 = 0.9; const B2 = 0.999; const ADAM_EPS = 1e-8;
`;
}

const BINDINGS = /* wgsl */ `
struct Params { runs: u32, K: u32, start: u32, first: u32 } // runs [first, runs) of this dispatch
// tables, itab: layout.ts's TABLES and ITAB sections; runInfo: per run (seed key, stream key) of its random numbers
@group(0) @binding(0) var<storage, read> tables: array<f32>;
@group(0) @binding(1) var<storage, read> itab: array<u32>;
@group(0) @binding(2) var<storage, read> algos: array<f32>;
@group(0) @binding(3) var<storage, read_write> theta: array<f32>;
@group(0) @binding(4) var<storage, read_write> adam: array<f32>;
@group(0) @binding(5) var<storage, read_write> scr: array<f32>;
@group(0) @binding(6) var<storage, read_write> rec: array<f32>;
@group(0) @binding(7) var<uniform> params: Params;
@group(0) @binding(8) var<storage, read> runInfo: array<u32>;

var<private> run: u32;  // this run's index
var<private> lb: u32;   // this run's node logits in theta
var<private> wb: u32;   // this run's MLP weights in theta
var<private> sb: u32;   // this run's scratch base
var<private> ab: u32;   // this run's algorithm record base
var<private> mb: u32;   // this run's Adam block base
var<private> clipNum: f32;
var<private> clipDen: f32;
var<private> key: vec3<u32>;   // (seed key, stream key, iteration) of this run's draws
var<private> ctr: u32;         // draws so far this iteration

/** A number of this run's algorithm record, and an option's code (layout.ts's ALGO_FIELDS). */
fn algo(f: u32) -> f32 { return algos[ab + f]; }
fn code(f: u32) -> u32 { return u32(algos[ab + f]); }
fn disc(t: u32) -> f32 { return tables[DISC0 + t]; }
`;

const RANDOM = /* wgsl */ `
// pcg4d (Jarzynski & Olano 2020): a counter-based hash, four 32-bit words in and out
fn pcg4d(v0: vec4<u32>) -> vec4<u32> {
  var v = v0 * 1664525u + 1013904223u;
  v.x += v.y * v.w; v.y += v.z * v.x; v.z += v.x * v.y; v.w += v.y * v.z;
  v = v ^ (v >> vec4<u32>(16u));
  v.x += v.y * v.w; v.y += v.z * v.x; v.z += v.x * v.y; v.w += v.y * v.z;
  return v;
}
/** The next uniform draw in [0, 1) of this run and iteration (24 bits). */
fn rand01() -> f32 {
  let h = pcg4d(vec4<u32>(key, ctr));
  ctr += 1u;
  return f32(h.x >> 8u) / 16777216.0;
}
/** A standard normal draw (Box–Muller). */
fn randNormal() -> f32 {
  let u1 = max(rand01(), 1e-7);
  let u2 = rand01();
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
`;

/** One iteration of one run, as the numbered steps at the top of this file. */
function iterationSource(s: KernelShape): string {
  return /* wgsl */ `
/**
 * 1. θ_old and log Z_old. A table's log Z is current from the end of the iteration before (its last
 * refreshLogZ, kept in the scratch between dispatches): computed here only at a run's first
 * iteration. An MLP refreshes (its node logits are recomputed at a dispatch's start).
 */
fn snapshotOld(first: bool) {
  for (var j = 0u; j < P; j++) { scr[sb + S_OLD + j] = theta[lb + j]; }
  ${s.mlp ? 'refreshLogZ(0u, N);' : 'if (first) { refreshLogZ(0u, N); }'}
  for (var g = 0u; g < PG; g++) { scr[sb + S_LZO + g] = scr[sb + S_LZ + g]; }
}
/** Clears the gradient with respect to the logits (and the MLP's weights). */
fn clearPolicyGradient() {
  clearGradient();${s.mlp ? '\n  mlpClearGrad();' : ''}
}
/** 3. The policy gradient at θ_old into S_GRAD (the MLP: into S_WG too, which REINFORCE steps along); its squared norm. */
fn policyGradientNorm() -> f32 {
  clearGradient();
  for (var i = 0u; i < RS; i++) {
    let w = scr[sb + S_W + i];
    if (w == 0.0) { continue; }
    for (var k = 0u; k < N; k++) { addGrad(nodeOf(i, k), tokOf(i, k), w * scr[sb + S_ADVT + i * N + k]); }
  }
  finishGradient(0u, N);
${
  s.mlp
    ? '  mlpBackward(0u, N);\n  return mlpGradNormSq();'
    : '  var gn = 0.0;\n  for (var j = 0u; j < P; j++) { let v = scr[sb + S_GRAD + j]; gn += v * v; }\n  return gn;'
}
}
fn iteration(r: u32, it: u32) {
  key = vec3<u32>(runInfo[2u * r], runInfo[2u * r + 1u], params.start + it);
  ctr = 0u;
  snapshotOld(params.start + it == 0u);
  let zero = fillBatch();
  storeLogpOld();
  tokenAdvantages();
  let gn = policyGradientNorm();
  applyRule();
  refreshLogZ(0u, N);
  let o = (r * params.K + it) * REC;
  rec[o + R_KL] = updateKl();
  rec[o + R_CLIP] = select(0.0, clipNum / clipDen, clipDen > 0.0);
  rec[o + R_ZERO] = zero;
  rec[o + R_GNORM] = sqrt(gn);
  evaluate(o);
}
`;
}

function entrySource(s: KernelShape, priv: boolean): string {
  const load = '  for (var j = 0u; j < SW; j++) { sp[j] = scr[sb + j]; }\n  for (var j = 0u; j < TH; j++) { tp[j] = theta[r * TH + j]; }\n  for (var j = 0u; j < ADAMW; j++) { ap[j] = adam[mb + j]; }\n  for (var j = 0u; j < AW; j++) { al[j] = algos[ab + j]; }\n';
  const store = '  for (var j = 0u; j < SW; j++) { scr[sb + j] = sp[j]; }\n  for (var j = 0u; j < TH; j++) { theta[r * TH + j] = tp[j]; }\n  for (var j = 0u; j < ADAMW; j++) { adam[mb + j] = ap[j]; }\n';
  return /* wgsl */ `
@compute @workgroup_size(${s.workgroup ?? 64})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let r = gid.x + params.first;
  if (r >= params.runs) { return; }
  run = r;
  lb = r * TH + TH_LOGITS;
  wb = r * TH + TH_W;
  sb = r * SW;
  ab = r * AW;
  mb = r * ADAMW;
${priv ? load : ''}${s.mlp ? '  mlpForwardAll(); // the logits of the weights as they are\n' : ''}  for (var it = 0u; it < params.K; it++) { iteration(r, it); }
${priv ? store : ''}}
`;
}

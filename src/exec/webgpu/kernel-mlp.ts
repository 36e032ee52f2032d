// The shared MLP policy in WGSL (docs/math.md, "Policies"), for kernel.ts. Each run's weights sit after its
// node logits in `theta` (W_l [in, out] row-major, then b_l, layer by layer: host/mlp.ts's
// initialMlp order); the kernel keeps the logits of every decision node in step with the weights,
// so everything downstream (sampling, ratios, KL, exact J) reads them exactly as it reads a tabular
// policy's. A step of the MLP is then: the gradient with respect to the logits of the nodes in
// scope (S_GRAD, what the tabular rules accumulate) is backpropagated into the weights (S_WG), the
// optimizer moves every weight (one shared network: updating one turn moves every turn), and every
// position's logits are marked stale; refreshLogZ computes a position's again before it is read
// (a sequential update reads only its own turn's until the end of the iteration).

export interface MlpKernelShape {
  /** [input, ...hidden, V]. */
  layers: number[];
  activation: 'tanh' | 'relu';
}

/** Words of one run's MLP weights and biases. */
export function mlpWords(m: MlpKernelShape): number {
  let n = 0;
  for (let l = 0; l + 1 < m.layers.length; l++) n += (m.layers[l]! + 1) * m.layers[l + 1]!;
  return n;
}

/** Where each layer's weights, biases and (hidden layers) outputs sit, and the widest layer. */
interface MlpPlan {
  m: MlpKernelShape;
  /** Layers (weight matrices). */
  nL: number;
  wOff: number[];
  bOff: number[];
  /** Where layer l's output (l < nL − 1) sits in hid. */
  hOff: number[];
  widest: number;
}

function planMlp(m: MlpKernelShape): MlpPlan {
  const nL = m.layers.length - 1;
  const wOff: number[] = [];
  const bOff: number[] = [];
  let o = 0;
  for (let l = 0; l < nL; l++) {
    wOff.push(o);
    o += m.layers[l]! * m.layers[l + 1]!;
    bOff.push(o);
    o += m.layers[l + 1]!;
  }
  const hOff: number[] = [0];
  for (let l = 1; l < nL; l++) hOff.push(hOff[l - 1]! + m.layers[l]!);
  return { m, nL, wOff, bOff, hOff, widest: Math.max(...m.layers.slice(1)) };
}

// Every layer's sizes and offsets are literals in its own block (the layers are unrolled): a
// constant array indexed at run time costs a copy of the array per access on some compilers.

/** Layer l's output k: the node's logits (the last layer) or its hidden activations. */
const layerOut = (p: MlpPlan, l: number, k: string) => (l === p.nL - 1 ? `theta[lb + g * V + ${k}]` : `hid[${p.hOff[l]}u + ${k}]`);

/** WGSL: layer l forward for node g (the first layer: its input is one-hot, so the sum of the W1 rows of the node's active inputs). */
function layerForward(p: MlpPlan, l: number): string {
  const nIn = p.m.layers[l]!;
  const nOut = p.m.layers[l + 1]!;
  const out = (k: string) => layerOut(p, l, k);
  const body =
    l === 0
      ? `  for (var o = 0u; o < ${nOut}u; o++) { ${out('o')} = wt(${p.bOff[l]}u + o); }
  for (var j = 0u; j < NI; j++) {
    let row = ${p.wOff[l]}u + itab[I_ACTIVE + g * NI + j] * ${nOut}u;
    for (var o = 0u; o < ${nOut}u; o++) { ${out('o')} += wt(row + o); }
  }`
      : `  for (var o = 0u; o < ${nOut}u; o++) {
    var z = wt(${p.bOff[l]}u + o);
    for (var i = 0u; i < ${nIn}u; i++) { z += hid[${p.hOff[l - 1]}u + i] * wt(${p.wOff[l]}u + i * ${nOut}u + o); }
    ${out('o')} = z;
  }`;
  const act = p.m.activation === 'tanh' ? 'tanh(z)' : 'max(z, 0.0)';
  const activation = l < p.nL - 1 ? `\n  for (var o = 0u; o < ${nOut}u; o++) { let z = hid[${p.hOff[l]}u + o]; hid[${p.hOff[l]}u + o] = ${act}; }` : '';
  return `  // layer ${l}: ${nIn} → ${nOut}\n${body}${activation}`;
}

/** WGSL: layer l backward for node g: its weights' gradient into S_WG from dz, and (l > 0) dz of the layer below. */
function layerBackward(p: MlpPlan, l: number): string {
  const nIn = p.m.layers[l]!;
  const nOut = p.m.layers[l + 1]!;
  const bias = `  for (var o = 0u; o < ${nOut}u; o++) { scr[sb + S_WG + ${p.bOff[l]}u + o] += dz[o]; }`;
  if (l === 0)
    return `  // layer 0: the rows of the active inputs\n${bias}
  for (var j = 0u; j < NI; j++) {
    let row = ${p.wOff[0]}u + itab[I_ACTIVE + g * NI + j] * ${nOut}u;
    for (var o = 0u; o < ${nOut}u; o++) { scr[sb + S_WG + row + o] += dz[o]; }
  }`;
  const actGrad = p.m.activation === 'tanh' ? '(1.0 - h * h)' : 'select(0.0, 1.0, h > 0.0)';
  return `  // layer ${l}: ${nIn} → ${nOut}\n${bias}
  for (var i = 0u; i < ${nIn}u; i++) {
    let h = hid[${p.hOff[l - 1]}u + i];
    var back = 0.0;
    for (var o = 0u; o < ${nOut}u; o++) {
      let j = ${p.wOff[l]}u + i * ${nOut}u + o;
      scr[sb + S_WG + j] += h * dz[o];
      back += wt(j) * dz[o];
    }
    dzPrev[i] = back * ${actGrad};
  }
  for (var i = 0u; i < ${nIn}u; i++) { dz[i] = dzPrev[i]; }`;
}

/** Layers [from, to) (downwards with `down`), each through f. */
function eachLayer(p: MlpPlan, from: number, to: number, f: (p: MlpPlan, l: number) => string, down = false): string {
  const ls: number[] = [];
  for (let l = from; l < to; l++) ls.push(l);
  return (down ? ls.reverse() : ls).map((l) => f(p, l)).join('\n');
}

/**
 * WGSL: mlpForwardAll() (the logits of every node from the weights), mlpRefresh(p0, p1) (those of
 * positions [p0, p1) where stale), mlpBackward(p0, p1) (S_WG += the weights' gradient from S_GRAD at
 * positions [p0, p1) of every context, S_GRAD cleared there), mlpGradNormSq() and mlpStep() (SGD or
 * Adam on every weight from S_WG, S_WG cleared, every logit stale). The weights are at wb in theta;
 * the nodes' active inputs at I_ACTIVE in itab, N + 2 per node (layout.ts).
 */
export function mlpSource(m: MlpKernelShape): string {
  const p = planMlp(m);
  return mlpState(p) + mlpForward(p) + mlpBackwardSource(p) + MLP_STEP;
}

const mlpState = (p: MlpPlan) => /* wgsl */ `
const PM = ${mlpWords(p.m)}u; const NI = N + 2u;
var<private> hid: array<f32, ${Math.max(1, p.hOff[p.nL - 1]!)}>; // one node's hidden activations
var<private> dz: array<f32, ${p.widest}>;   // dL/dz of the layer being walked back
var<private> dzPrev: array<f32, ${p.widest}>;
var<private> stale: array<bool, N>; // positions whose logits predate the last step (computed when next read: refreshLogZ)

fn wt(j: u32) -> f32 { return theta[wb + j]; }
`;

const mlpForward = (p: MlpPlan) => /* wgsl */ `
/** Hidden activations of node g into hid. */
fn mlpHidden(g: u32) {
${eachLayer(p, 0, p.nL - 1, layerForward) || '  _ = g;'}
}

/** The logits of node g from the current weights. */
fn mlpForwardNode(g: u32) {
  mlpHidden(g);
${layerForward(p, p.nL - 1)}
}

/** The logits of every decision node from the current weights. */
fn mlpForwardAll() {
  for (var g = 0u; g < G; g++) { mlpForwardNode(g); }
  for (var p = 0u; p < N; p++) { stale[p] = false; }
}

/** The logits of the nodes at positions [p0, p1) of every context, where a step has moved the weights since they were computed. */
fn mlpRefresh(p0: u32, p1: u32) {
  for (var p = p0; p < p1; p++) {
    if (!stale[p]) { continue; }
    for (var x = 0u; x < C; x++) {
      for (var n = OFFSET[p]; n < OFFSET[p + 1u]; n++) { mlpForwardNode(x * NP + n); }
    }
    stale[p] = false;
  }
}
`;

const mlpBackwardSource = (p: MlpPlan) => /* wgsl */ `
/** The weights' gradient of Σ_a S_GRAD[g, a]·logit[g, a] for node g (its dL/dz in dz), into S_WG. */
fn mlpBackNode(g: u32) {
  mlpHidden(g);
${eachLayer(p, 0, p.nL, layerBackward, true)}
}

/** S_WG += ∂/∂weights of Σ_g Σ_a S_GRAD[g, a]·logit[g, a] over the nodes at positions [p0, p1); S_GRAD there is zeroed. */
fn mlpBackward(p0: u32, p1: u32) {
  for (var x = 0u; x < C; x++) {
    for (var n = OFFSET[p0]; n < OFFSET[p1]; n++) {
      let g = x * NP + n;
      var live = false;
      for (var a = 0u; a < V; a++) {
        let d = scr[sb + S_GRAD + g * V + a];
        dz[a] = d;
        live = live || d != 0.0;
        scr[sb + S_GRAD + g * V + a] = 0.0;
      }
      if (live) { mlpBackNode(g); }
    }
  }
}
`;

const MLP_STEP = /* wgsl */ `
/** Σ S_WG² (the reported gradient norm, squared). */
fn mlpGradNormSq() -> f32 {
  var s = 0.0;
  for (var j = 0u; j < PM; j++) { let v = scr[sb + S_WG + j]; s += v * v; }
  return s;
}

fn mlpClearGrad() {
  for (var j = 0u; j < PM; j++) { scr[sb + S_WG + j] = 0.0; }
}

/** Gradient ascent on every weight along S_WG (SGD, or Adam with one step count: the network is one agent's), S_WG cleared; every node's logits are then stale. */
fn mlpStep() {
  let lr = algo(A_LR);
  if (code(A_OPTIMIZER) == OPTIMIZER_SGD) {
    for (var j = 0u; j < PM; j++) { theta[wb + j] += lr * scr[sb + S_WG + j]; scr[sb + S_WG + j] = 0.0; }
  } else {
    adam[mb + AD_K] += 1.0;
    let k = adam[mb + AD_K];
    let c1 = 1.0 - pow(B1, k);
    let c2 = 1.0 - pow(B2, k);
    for (var j = 0u; j < PM; j++) {
      theta[wb + j] += adamMove(j, scr[sb + S_WG + j], lr, c1, c2);
      scr[sb + S_WG + j] = 0.0;
    }
  }
  for (var p = 0u; p < N; p++) { stale[p] = true; } // every node's logits moved: refreshLogZ recomputes those it reads
}
`;

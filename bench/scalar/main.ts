// The scalar float64 implementation as a program: `node dist/scalar.mjs CONFIG.json` runs every
// (algorithm, seed) run of a sampled tabular experiment one after the other with plain objects
// and arrays (bench/baseline: rollouts, advantages, updates; bench/scalar/evaluate.ts: exact J),
// computing every metric the engine records each iteration (J, entropy, optimal-token
// probabilities, KL, clip fraction, zero-variance groups, gradient norm), and prints a summary:
// per algorithm, final J's mean and standard error and the share of seeds within 0.01 of J*.
// It is meant as what a competent person writes in an afternoon, not a straw man: the helpers
// are plain loops (no spread into Math.max, no Array.from over array-likes in the hot path) and a
// run's series is dropped once the summary has what it needs (holding every series made the
// heap, and the garbage collector's work, grow with the number of runs). `npm run bench --
// versus` times it against this project's CLI, whole process, paired (bench/versus.ts).
import { readFileSync } from 'node:fs';
import { resolveConfig } from '../../src/core/config/resolve';
import { computeOptimum } from '../../src/core/env/exact';
import { buildTree } from '../../src/core/env/tree';
import { runBaselineRun } from '../baseline/run';
import { scalarEvaluate } from './evaluate';

/** What the summary needs of one run: its first and final J, or the iteration it diverged at. */
export interface ScalarRun {
  algoIndex: number;
  seedIndex: number;
  J0: number;
  final: number; // NaN when the run diverged
  diverged: number | null;
}

/**
 * Every run of the experiment, algorithm-major, evaluated by the scalar evaluator every
 * iteration; each run's series is dropped once its first and final J are read, so memory does
 * not grow with the number of runs.
 */
export function runScalar(config: unknown): { exp: ReturnType<typeof resolveConfig>; Jstar: number; runs: ScalarRun[] } {
  const exp = resolveConfig(config);
  const opt = computeOptimum(exp.env, buildTree(exp.env));
  const runs: ScalarRun[] = [];
  for (let a = 0; a < exp.algorithms.length; a++)
    for (const seed of exp.seedIndices) {
      const s = runBaselineRun(exp, a, seed, opt, (e, tree, o, policy) => scalarEvaluate(e.env, tree, o, policy));
      runs.push({ algoIndex: a, seedIndex: seed, J0: s.J[0], final: s.diverged === null ? s.J[exp.iterations] : NaN, diverged: s.diverged });
    }
  return { exp, Jstar: opt.Jstar, runs };
}

export function summaryLines(run: ReturnType<typeof runScalar>): string[] {
  const { exp, Jstar, runs } = run;
  const lines = [`scalar implementation: ${exp.algorithms.length} algorithms × ${exp.seedIndices.length} seeds × ${exp.iterations} iterations, J* = ${Jstar}`];
  exp.algorithms.forEach((a, i) => {
    const finals = runs.filter((s) => s.algoIndex === i).map((s) => s.final);
    const ok = finals.filter(Number.isFinite);
    const m = ok.reduce((x, y) => x + y, 0) / Math.max(1, ok.length);
    const se = Math.sqrt(ok.reduce((x, y) => x + (y - m) ** 2, 0) / Math.max(1, ok.length - 1) / Math.max(1, ok.length));
    const atStar = ok.filter((v) => v >= Jstar - 0.01).length;
    lines.push(`${a.id.padEnd(16)} final J ${m.toFixed(4)} ± ${se.toFixed(4)}  at J*: ${atStar}/${finals.length}  diverged: ${finals.length - ok.length}`);
  });
  return lines;
}

const file = process.argv[2];
if (process.argv[1]?.endsWith('scalar.mjs')) {
  if (!file) {
    console.error('usage: node dist/scalar.mjs CONFIG.json');
    process.exit(2);
  }
  console.log(summaryLines(runScalar(JSON.parse(readFileSync(file, 'utf8')))).join('\n'));
}

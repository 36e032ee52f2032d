// The scalar float64 implementation as a program: `node dist/scalar.mjs CONFIG.json` runs every
// (algorithm, seed) run of a sampled tabular experiment one after the other with plain objects
// and arrays (bench/baseline: rollouts, advantages, updates; bench/scalar/evaluate.ts: exact J),
// and prints a summary: per algorithm, final J's mean and standard error and the share of seeds
// within 0.01 of J*. `npm run bench -- versus` times it against this project's CLI, whole
// process, paired (bench/versus.ts).
import { readFileSync } from 'node:fs';
import { resolveConfig } from '../../src/core/config/resolve';
import { computeOptimum } from '../../src/core/env/exact';
import { buildTree } from '../../src/core/env/tree';
import { runBaselineRun, type BaselineSeries } from '../baseline/run';
import { scalarEvaluate } from './evaluate';

/** Every run of the experiment, algorithm-major, evaluated by the scalar evaluator. */
export function runScalar(config: unknown): { exp: ReturnType<typeof resolveConfig>; Jstar: number; series: BaselineSeries[] } {
  const exp = resolveConfig(config);
  const opt = computeOptimum(exp.env, buildTree(exp.env));
  const series: BaselineSeries[] = [];
  for (let a = 0; a < exp.algorithms.length; a++)
    for (const seed of exp.seedIndices) series.push(runBaselineRun(exp, a, seed, opt, (e, tree, o, policy) => scalarEvaluate(e.env, tree, o, policy)));
  return { exp, Jstar: opt.Jstar, series };
}

export function summaryLines(run: ReturnType<typeof runScalar>): string[] {
  const { exp, Jstar, series } = run;
  const lines = [`scalar implementation: ${exp.algorithms.length} algorithms × ${exp.seedIndices.length} seeds × ${exp.iterations} iterations, J* = ${Jstar}`];
  exp.algorithms.forEach((a, i) => {
    const finals = series.filter((s) => s.algoIndex === i).map((s) => (s.diverged === null ? s.J[exp.iterations] : NaN));
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

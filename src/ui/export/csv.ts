import { jcontextStride, slotOf, storageStride, storedUpTo, type RunSeries } from '../../core/run/series';
import { METRIC, UPDATE_METRICS } from '../../core/metrics/names';
import { runSlot } from '../../core/run/partition';
import { usesDiscountedObjective } from '../../core/env/discounted';
import type { Live } from '../live';
import type { Plan } from '../plan';

// The page's results as CSV in long format, one value per row:
//
//   algorithm,seed,iteration,metric,value
//   grpo,0,0,J,0.1111111111111111
//
// - `algorithm`: the algorithm's id; `seed`: the seed index (0-based), as in the CLI result JSON.
// - `iteration`: the 0-based index into the metric's array in the CLI result JSON
//   (docs/cli.md "The result JSON"), so a row and the JSON mean the same thing:
//   * evaluations, iterations + 1 values: `J`, `entropy` and `optimalTokenProb_turn<t>` (t = 1..T,
//     the JSON's optimalTokenProb[t − 1]) at iteration k are the policy after k updates (k = 0: before any);
//     with γ < 1 and per-turn rewards also `Jgamma` (the discounted return, the JSON's Jgamma) right
//     after `J`, at every iteration like J; with several contexts also `Jcontext[x]` (x = 0..contexts − 1, the JSON's Jcontext[x]): the J
//     of context x (J is their mean);
//   * per-update metrics, iterations values: `kl`, `clipFraction`, `zeroVarianceGroups`, `gradNorm`,
//     `wallMs` (UPDATE_METRICS) at iteration k belong to the update that takes J[k] to J[k + 1] (the charts draw
//     them at k + 1).
// - `value`: the number at full precision (String(v)); an empty cell where the run diverged
//   (NaN/Inf, the JSON's null).
//
// Only what the page has computed is written: evaluations up to live.iteration, updates up to
// live.iteration − 1. A diverged run keeps its rows (with empty values), so the row count is
// algorithms × seeds × ((iteration + 1)·(2 + T + C' + D) + iteration·5) whatever happened (C' = the
// contexts when there are several, else 0; D = 1 with Jgamma rows, else 0) — except past STORED_POINTS iterations, where the
// page keeps metrics other than J only at every k-th iteration (series.ts): those have rows at
// the iterations kept, J at every iteration (Jcontext: at every iteration unless contexts ·
// (iterations + 1) · runs passes the stored-points limit, then at its own stride).
// `seeds` are the seed indices that ran (a config's `seedIndices` may replay only some).
// Rows are ordered by algorithm (config order), seed, iteration, then metric in the order above.

export const CSV_HEADER = 'algorithm,seed,iteration,metric,value';

// The metrics' names are the result JSON's (core/metrics/names.ts).

/** The evaluation metrics of a T-turn experiment, as named in the CSV, in its rows' order (J, entropy, one per turn). */
export function evaluationMetricNames(turns: number): string[] {
  return [METRIC.J.name, METRIC.entropy.name, ...Array.from({ length: turns }, (_, t) => optimalTokenProbName(t))];
}

/** `optimalTokenProb_turn1` for turn index 0: no brackets, so a spreadsheet filter or formula can use it as is. */
export const optimalTokenProbName = (turnIndex: number) => `${METRIC.optimalTokenProb.name}_turn${turnIndex + 1}`;

/** RFC 4180: a field with a comma, quote, CR or LF (or leading/trailing space) is quoted, quotes doubled. */
export function csvField(s: string): string {
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A value cell: full precision, empty when not finite (diverged). */
const cell = (v: number) => (Number.isFinite(v) ? String(v) : '');

/** Number of data rows resultsCsv writes for `iteration` computed iterations. */
export function csvRowCount(plan: Plan, iteration: number): number {
  const k = computedIterations(plan, iteration);
  if (k < 0) return 0;
  const n = plan.exp.iterations;
  const every = storageStride(n);
  const C = contextColumns(plan);
  const evals = (k + 1) * (usesDiscountedObjective(plan.exp.env) ? 2 : 1) + (1 + plan.exp.env.turns) * storedUpTo(k, n, every) + C * storedUpTo(k, n, jcontextStride(plan.exp));
  return plan.exp.algorithms.length * plan.exp.seedIndices.length * (evals + storedUpTo(k - 1, n - 1, every) * UPDATE_METRICS.length);
}

/** `Jcontext[x]` rows per evaluation: the contexts when there are several, else none. */
const contextColumns = (plan: Plan) => (plan.exp.env.contexts > 1 ? plan.exp.env.contexts : 0);

/** `Jcontext[0]` for context 0: the JSON's name and index. */
export const jcontextName = (x: number) => `${METRIC.Jcontext.name}[${x}]`;

const computedIterations = (plan: Plan, iteration: number) => Math.min(Math.floor(iteration), plan.exp.iterations);

/** Rows are joined in groups of this many: one join of a short array is far cheaper than a long rope of `+=`. */
const ROWS_PER_CHUNK = 8192;

/**
 * The CSV as chunks of whole lines (header first), for a Blob without one giant string:
 * `new Blob(resultsCsvChunks(plan, live))`. Their concatenation is resultsCsv.
 */
export function resultsCsvChunks(plan: Plan, live: Live | null): string[] {
  const chunks: string[] = [CSV_HEADER + '\n'];
  if (!live) return chunks;
  const upTo = computedIterations(plan, live.iteration);
  if (upTo < 0) return chunks;
  const { exp } = plan;
  const turns = exp.env.turns;
  const n = exp.iterations;
  const every = live.runs[0]?.every ?? storageStride(n);
  // ",J," etc.: the constant middle of each row
  const evalNames = evaluationMetricNames(turns).map((m) => `,${csvField(m)},`);
  const updateNames = UPDATE_METRICS.map((m) => `,${csvField(m)},`);
  const C = contextColumns(plan);
  const discounted = usesDiscountedObjective(exp.env);
  const jgammaName = `,${csvField(METRIC.Jgamma.name)},`;
  const contextNames = Array.from({ length: C }, (_, x) => `,${csvField(jcontextName(x))},`);
  const jcEvery = live.runs[0]?.jcontextEvery ?? jcontextStride(exp);
  const bySlot = new Map<number, RunSeries>();
  for (const r of live.runs) bySlot.set(runSlot(exp, r.algoIndex, r.seedIndex), r);
  let rows: string[] = [];
  const flush = () => {
    chunks.push(rows.join(''));
    rows = [];
  };
  for (let a = 0; a < exp.algorithms.length; a++) {
    const id = csvField(exp.algorithms[a].id);
    for (const s of exp.seedIndices) {
      const run = bySlot.get(runSlot(exp, a, s));
      const prefix = `${id},${s},`;
      for (let k = 0; k <= upTo; k++) {
        const head = prefix + k;
        rows.push(head + evalNames[0] + (run ? cell(run.J[k]) : '') + '\n');
        if (discounted) rows.push(head + jgammaName + (run?.Jgamma ? cell(run.Jgamma[k]) : '') + '\n');
        const e = slotOf(k, n, every);
        if (e >= 0) {
          rows.push(head + evalNames[1] + (run ? cell(run.entropy[e]) : '') + '\n');
          for (let t = 0; t < turns; t++) rows.push(head + evalNames[2 + t] + (run ? cell(run.optimalTokenProb[t][e]) : '') + '\n');
        }
        const c = C > 0 ? slotOf(k, n, jcEvery) : -1;
        if (c >= 0) for (let x = 0; x < C; x++) rows.push(head + contextNames[x] + (run?.Jcontext[x] ? cell(run.Jcontext[x][c]) : '') + '\n');
        const u = k < upTo ? slotOf(k, n - 1, every) : -1;
        if (u >= 0)
          for (let m = 0; m < UPDATE_METRICS.length; m++)
            rows.push(head + updateNames[m] + (run ? cell(run[UPDATE_METRICS[m]][u]) : '') + '\n');
        if (rows.length >= ROWS_PER_CHUNK) flush();
      }
    }
  }
  if (rows.length) flush();
  return chunks;
}

/**
 * Every metric the page holds, one row per (algorithm, seed, iteration, metric); "\n" line
 * endings, a header line, and a final newline. Header only when there is no `live`.
 */
export function resultsCsv(plan: Plan, live: Live | null): string {
  return resultsCsvChunks(plan, live).join('');
}

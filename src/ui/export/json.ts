import type { BackendReport } from '../../core/run/backend-report';
import { buildResult, type ExperimentResult } from '../../core/run/result';
import { truncateSeries } from '../../core/run/series';
import { seedPosition } from '../../core/run/partition';
import { executorTag, resultsHash, type ResultsHash } from '../../core/metrics/results-hash';
import { DEFAULT_VIEW } from '../../core/config/view';
import { jIsEstimate } from '../charts/axis';
import { shareConfig } from '../share';
import type { HotChange, Live } from '../live';
import type { Plan } from '../plan';

// The page's results as the JSON the CLI prints (docs/cli.md "The result JSON",
// built by the same buildResult), plus what it takes to reproduce and compare them:
//
//   config        the config JSON that replays these runs (the CLI's input, the one a permalink
//                 carries: share.ts's shareConfig): the config the run started from, with the
//                 learning-rate / clip changes made while it ran appended to its `changes`
//   configReproduces  false when those changes did not fit in `changes` (config is then the start's)
//   resultsHash   { digest: 12 hex digits, by: "cpu" | "tensor-<backend>", app } over every J curve
//                 (the digest a permalink carries, for a complete run)
//   complete      false while the run has not reached `iterations`: values past
//                 `computedIterations` are then null (and the digest is over what was computed)
//   computedIterations  iterations every run has completed
//   hotChanges    every learning-rate / clip change of the run (iteration, path, from, to;
//                 `scheduled` when the config stated it)
//
// `wallSeconds` is the time the page computed (pauses excluded).

export interface PageResultMeta {
  /** The tfjs backend the tensor executor chose (the store's `backend`); null on the CPU executor. */
  backend: BackendReport | null;
  /** Seconds the run computed (the store's `elapsed`). */
  wallSeconds: number;
}

export interface PageResult extends ExperimentResult {
  complete: boolean;
  computedIterations: number;
  hotChanges: HotChange[];
  config: unknown;
  configReproduces: boolean;
  resultsHash: ResultsHash;
}

/** The result object (see the file comment); `JSON.stringify` it to save. */
export function pageResult(plan: Plan, live: Live, meta: PageResultMeta): PageResult {
  const { exp, choice } = plan;
  const upTo = Math.max(0, Math.min(Math.floor(live.iteration), exp.iterations));
  const complete = upTo >= exp.iterations;
  const series = complete ? live.runs : live.runs.map((s) => truncateSeries(s, upTo));
  const tensor = choice.executor === 'tensor';
  const backend = tensor ? (meta.backend?.backend ?? null) : null;
  const result = buildResult(exp, plan.Jstar, series, {
    executor: choice.executor,
    backend,
    executorReason: tensor && meta.backend ? `${choice.reason}; backend ${meta.backend.backend}: ${meta.backend.reason}` : choice.reason,
    threads: tensor ? 1 : plan.threads,
    wallSeconds: meta.wallSeconds,
    jIsEstimate: jIsEstimate(exp),
  });
  // curves[a][p]: algorithm a's p-th seed that ran (every seed, or those `seedIndices` lists), as the permalink's digest (share.ts) takes them
  const ids = exp.algorithms.map((a) => a.id);
  const curves: Float64Array[][] = ids.map(() => []);
  for (const s of series) curves[s.algoIndex][seedPosition(exp, s.seedIndex)] = s.J;
  const replay = shareConfig({ draft: plan.config as Record<string, unknown>, plan, live, view: DEFAULT_VIEW, embed: false });
  return {
    ...result,
    complete,
    computedIterations: upTo,
    hotChanges: live.changes.map((c) => ({ ...c })),
    config: replay.config,
    configReproduces: replay.exact,
    resultsHash: resultsHash(ids, curves, executorTag(choice.executor, backend)),
  };
}

/** The result JSON as text, compact like the CLI's (a 4M-value result indented would be several times larger). */
export function resultsJson(plan: Plan, live: Live, meta: PageResultMeta): string {
  return JSON.stringify(pageResult(plan, live, meta)) + '\n';
}

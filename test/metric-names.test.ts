import { describe, expect, it } from 'vitest';
import { CHART_METRICS, METRIC, METRIC_DEFS, UPDATE_METRICS, X_AXES, X_AXIS, type MetricDef } from '../src/core/metrics/names';
import { METRICS } from '../src/core/config/view';
import { allRuns } from '../src/core/run/partition';
import { buildResult } from '../src/core/run/result';
import { CpuShard } from '../src/exec/cpu/shard';
import { evaluationMetricNames, resultsCsv } from '../src/ui/export/csv';
import { planExperiment } from '../src/ui/plan';
import { customConfig } from './support/engine';

// Metric names and labels are defined once (src/core/metrics/names.ts): the lists the
// result JSON, the CSV, the series and the metric chart use are derived from it, in the orders
// their outputs were written in before.

describe('metric names', () => {
  it('derive the update metrics, the chart choices and the x axes in their output order', () => {
    expect(UPDATE_METRICS).toEqual(['kl', 'clipFraction', 'zeroVarianceGroups', 'gradNorm', 'wallMs']);
    expect(CHART_METRICS).toEqual(['entropy', 'kl', 'clipFraction', 'zeroVarianceGroups', 'gradNorm', 'Jgamma']);
    expect(METRICS).toBe(CHART_METRICS);
    expect(X_AXES).toEqual(['iterations', 'steps', 'rollouts']);
    for (const m of CHART_METRICS) expect(METRIC[m].label && METRIC[m].note, m).toBeTruthy();
    expect(CHART_METRICS.filter((m) => METRIC[m].share)).toEqual(['clipFraction', 'zeroVarianceGroups']);
    expect(X_AXIS.steps).toMatchObject({ label: 'Gradient steps', title: 'gradient steps (per run)', unit: 'steps' });
  });

  it("are the result JSON's run fields (in its order) and the CSV's metric names", () => {
    const plan = planExperiment(customConfig({ T: 2, V: 2, L: 1, rewards: [0, 0, 0, 1], iterations: 2, seeds: 1, algorithms: [{ id: 'reinforce' }] }), 1);
    const shard = new CpuShard(plan.exp, allRuns(plan.exp));
    while (!shard.done) shard.step();
    const run = buildResult(plan.exp, 1, shard.series, { executor: 'cpu', backend: null, executorReason: '', threads: 1, wallSeconds: 0 }).algorithms[0]!.runs[0]!;
    expect(Object.keys(run)).toEqual(['seed', 'J', 'entropy', 'optimalTokenProb', ...UPDATE_METRICS, 'violations', 'diverged']);
    // Jcontext: several contexts only; Jgamma: γ < 1 with per-turn rewards only (test/jgamma.test.ts)
    for (const d of METRIC_DEFS as readonly MetricDef[]) if (d.per !== 'context' && d.name !== 'Jgamma') expect(run, d.name).toHaveProperty(d.name);
    expect(run).not.toHaveProperty('Jgamma');
    const csvMetrics = new Set(resultsCsv(plan, { runs: shard.series, iteration: 2, changes: [], startConfig: {} }).trim().split('\n').slice(1).map((row) => row.split(',')[3]));
    expect([...csvMetrics]).toEqual([...evaluationMetricNames(2), ...UPDATE_METRICS]);
    expect(evaluationMetricNames(2)).toEqual(['J', 'entropy', 'optimalTokenProb_turn1', 'optimalTokenProb_turn2']);
  });
});

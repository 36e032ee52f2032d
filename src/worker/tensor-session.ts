import { needsMonteCarlo, resolveConfig } from '../core/config/resolve';
import type { BackendName, BackendReport } from '../exec/tensor/backend';
import { McShard } from '../exec/tensor/mc-shard';
import { groupByShape } from '../exec/tensor/run-experiment';
import { TensorShard } from '../exec/tensor/shard';
import { applyHotValues } from '../core/run/changes';
import { storageStride } from '../core/run/series';
import { TreeWatch } from '../exec/host/tree-watch';
import type { MakeSteppable } from './session-host';
import { TURN_STEP_NEEDS_CPU } from './session-protocol';


/**
 * The tensor executor's shards (one per update shape) as a session's runs, after selecting
 * a tfjs backend with `select` (browser or Node registration).
 */
export function makeTensorSteppable(select: (asked: BackendName | null) => Promise<BackendReport>): MakeSteppable {
  return async (config) => {
    const exp = resolveConfig(config);
    const backend = await select(exp.backend);
    const monteCarlo = exp.policy.kind === 'mlp' && needsMonteCarlo(exp.env);
    const shards: (TensorShard | McShard)[] = [];
    const every = storageStride(exp.iterations);
    try {
      for (const specs of groupByShape(exp)) shards.push(monteCarlo ? new McShard(exp, specs, every) : new TensorShard(exp, specs, { every }));
      for (const s of shards) await s.init();
    } catch (e) {
      shards.forEach((s) => s.dispose());
      throw e;
    }
    // the policy trees, from the log-probability tables each iteration reads back (an MLP's at every prefix);
    // a Monte-Carlo shard has no table (the environment is too large to enumerate)
    const tables = shards.flatMap((s) => (s instanceof TensorShard ? [s] : []));
    const noFed = 'the tensor executor keeps no batch on the host to read it from';
    const watches = tables.map((s) => new TreeWatch(s.pb, s.specs, noFed));
    return {
      series: shards.flatMap((s) => s.series),
      get iteration() {
        return shards[0].iteration;
      },
      total: exp.iterations,
      turns: exp.env.turns,
      Jstar: shards[0].Jstar,
      backend,
      async step(turns) {
        if (turns) throw new Error(TURN_STEP_NEEDS_CPU);
        for (const s of shards) await s.step();
        return null;
      },
      applyHot(v) {
        applyHotValues(exp, v);
        shards.forEach((s) => s.refreshHyper());
      },
      dispose: () => shards.forEach((s) => s.dispose()),
      watch: (runs, context) => watches.forEach((w) => w.watch(runs, context)),
      trees: () => watches.flatMap((w, i) => w.trees(tables[i].iteration, (r) => tables[i].runs[r].theta)),
    };
  };
}

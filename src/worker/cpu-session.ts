import { resolveConfig } from '../core/config/resolve';
import { CpuShard } from '../exec/cpu/shard';
import type { MakeSteppable } from './session-host';
import { applyHotValues } from '../core/run/changes';
import { storageStride } from '../core/run/series';

/** A CPU shard as a session's runs, storing what the page stores (series.ts's storageStride) (the runs read exp.optimizer.lr and their record's clip at every step). */
export const makeCpuSteppable: MakeSteppable = async (config, specs) => {
  const exp = resolveConfig(config);
  const shard = new CpuShard(exp, specs, storageStride(exp.iterations));
  return {
    series: shard.series,
    get iteration() {
      return shard.iteration;
    },
    total: exp.iterations,
    turns: exp.env.turns,
    Jstar: shard.pb.opt.Jstar,
    backend: null,
    step: async (turns) => shard.step(turns),
    applyHot: (v) => applyHotValues(exp, v),
    dispose() {},
    watch: (runs, context) => shard.watch(runs, context),
    trees: () => shard.trees(),
  };
};

import { resolveConfig, type Experiment } from '../core/config/resolve';
import { CpuShard } from '../exec/cpu/shard';
import type { MakeSteppable } from './session-host';
import type { HotValues } from './session-protocol';

/** Write a hot change into the experiment the runs read their learning rate and clips from. */
export function applyHotValues(exp: Experiment, v: HotValues): void {
  if (v.lr !== undefined) exp.optimizer.lr = v.lr;
  v.clips?.forEach((c, i) => {
    if (c !== null && exp.algorithms[i]) exp.algorithms[i].clip = c;
  });
}

/** A CPU shard as a session's runs (the runs read exp.optimizer.lr and their record's clip at every step). */
export const makeCpuSteppable: MakeSteppable = async (config, specs) => {
  const exp = resolveConfig(config);
  const shard = new CpuShard(exp, specs);
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
  };
};

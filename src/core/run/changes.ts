import type { Experiment } from '../config/resolve';
import { CHANGE_PATH, type ScheduledChange } from '../config/hot-paths';
export { CHANGE_PATH, type ScheduledChange } from '../config/hot-paths';

// Changes of the learning rate or a clip at a given iteration ("hot" changes). The page makes
// them while a run goes; a config (and so a permalink) carries them as `changes`, and every
// executor applies them at the same point: before computing iteration `at` (→ at + 1).

export interface HotValues {
  lr?: number;
  /** New clip per algorithm index (null: unchanged). */
  clips?: (number | null)[];
}

/** The values a change writes, for an experiment with `algorithms` entries. */
export function changeValues(c: ScheduledChange, algorithms: number): HotValues {
  const m = CHANGE_PATH.exec(c.path);
  if (!m) throw new Error(`not a hot path: ${c.path}`);
  if (m[2] === undefined) return { lr: c.value };
  const i = Number(m[2]);
  return { clips: Array.from({ length: algorithms }, (_, j) => (j === i ? c.value : null)) };
}

/** Write hot values into the experiment the runs read their learning rate and clips from. */
export function applyHotValues(exp: Experiment, v: HotValues): void {
  if (v.lr !== undefined) exp.optimizer.lr = v.lr;
  v.clips?.forEach((c, i) => {
    if (c !== null && exp.algorithms[i]) exp.algorithms[i].clip = c;
  });
}

/** Apply the experiment's changes due at `iteration`; true when any was. */
export function applyScheduled(exp: Experiment, iteration: number): boolean {
  let any = false;
  for (const c of exp.changes) {
    if (c.at !== iteration) continue;
    applyHotValues(exp, changeValues(c, exp.algorithms.length));
    any = true;
  }
  return any;
}

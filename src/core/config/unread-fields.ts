import { fieldsRead } from '../algo/records';
import { sequenceCount } from '../env/tree';
import type { Experiment } from './experiment';
import { CHANGE_PATH, type ScheduledChange } from './hot-paths';
import { needsMonteCarlo } from './monte-carlo';
import { LIMITS } from './schema';

// Settings the run will never read, said as warnings (as an algorithm's unread fields are,
// resolve.ts): a reader who set them expects them to act, and a silent no-op misleads.

/**
 * Warnings for the experiment-level settings `exp` does not read. `mcSamplesGiven`: the config
 * set mcSamples; `changes`: the config's changes in its own order (exp.changes is sorted by `at`).
 */
export function unreadFieldWarnings(exp: Experiment, mcSamplesGiven: boolean, changes: readonly ScheduledChange[]): string[] {
  const out: string[] = [];
  const { env } = exp;
  if (mcSamplesGiven && !needsMonteCarlo(env)) {
    const sequences = env.contexts * sequenceCount(env);
    out.push(`mcSamples: ignored: J is exact here (${sequences.toLocaleString('en-US')} token sequences; it is a Monte-Carlo estimate only past ${LIMITS.maxSequences.toLocaleString('en-US')})`);
  }
  if (exp.mode === 'exact' && env.contextsPerBatch < env.contexts)
    out.push(`env.contextsPerBatch: ignored in exact mode (every context is weighed by its probability); it sets the contexts drawn per iteration in sampled mode`);
  const ownLr = exp.algorithms.every((a) => a.lr !== null);
  changes.forEach((c, k) => {
    const m = CHANGE_PATH.exec(c.path);
    if (!m) return;
    if (m[2] === undefined) {
      if (ownLr) out.push(`changes[${k}] (optimizer.lr at ${c.at}): ignored: every algorithm has its own lr`);
      return;
    }
    const a = exp.algorithms[Number(m[2])];
    if (a && !fieldsRead(a).has('clip')) out.push(`changes[${k}] (${c.path} at ${c.at}): ignored by the ${a.rule} rule, which has no clip`);
  });
  return out;
}

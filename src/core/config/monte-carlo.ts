import type { Env } from '../env/types';
import { sequenceCount } from '../env/tree';
import { LIMITS } from './schema';

/** True when J must be a Monte-Carlo estimate: more sequences than exact enumeration allows. */
export function needsMonteCarlo(env: Pick<Env, 'contexts' | 'vocab' | 'turns' | 'tokensPerTurn'>): boolean {
  return env.contexts * sequenceCount(env) > LIMITS.maxSequences;
}

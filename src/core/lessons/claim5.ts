import type { Lesson } from './types';
import { standardVariants } from './variants';

// Claim 5: group std normalization changes where training ends; batch normalization does not move
// it. Numbers measured with the CLI (exact mode, CPU executor); times on the 2-core dev machine,
// `claims X.json --threads 2`. Every lesson is run under its holdsUnder by
// test/integration/lessons-variants.test.ts.
//
// The claim needs parameters shared across prompts: with a table per prompt a normalization only
// rescales each prompt's step, so it cannot move where training ends (docs/claims.md, claim 5).
// `policy.shareContexts` is the smallest exact model of that sharing: one table for every prompt.

const NORMALIZATIONS = [
  { id: 'grpo' },
  { id: 'grpo-batch', preset: 'grpo', normalization: 'batch', label: 'GRPO · batch norm' },
  { id: 'grpo-none', preset: 'grpo', normalization: 'none', label: 'GRPO · no norm' },
];

/**
 * Two prompts with rewards on different scales, one turn of three tokens: prompt A pays 1 for
 * token 0 and 0.5 for token 2, prompt B pays 0.1 for token 1 and 0.09 for token 2. The mean table
 * is [0.5, 0.05, 0.295]: J* = 0.5 at token 0, A's favourite.
 */
const SCALES = {
  turns: 2,
  vocab: 3,
  tokensPerTurn: 1,
  contexts: 2,
  rewards: [
    [1, 1, 1, 0, 0, 0, 0.5, 0.5, 0.5],
    [0, 0, 0, 0.1, 0.1, 0.1, 0.09, 0.09, 0.09],
  ],
};

export const CLAIM5: Lesson[] = [
  // 0.6 s. lr ×0.5, ×2, seeds 7 and 11, initScale 0.3 → observed (group 0.295, batch 0.500, none
  // 0.499–0.500 in every variant); from initScale 1, 8 seeds: group 0/8 at J*, batch and none 8/8.
  {
    id: 'shared-table-group-std-moves-the-end',
    claim: 5,
    expect: 'observed',
    title: 'One table for two prompts: group std makes every prompt pull equally, and training ends away from J*',
    text:
      'Two prompts share one policy (one table, which cannot see the prompt): prompt A pays 1 for a first token 0 and 0.5 for token 2, prompt B pays only 0.1 for token 1 and 0.09 for token 2, so the best shared choice is token 0 (J* = 0.5). ' +
      'Batch normalization and none weigh each prompt by its rewards and end at J*; group normalization divides each prompt\'s advantages by that prompt\'s own spread, so B, ten times smaller, pulls as hard as A, and the shared policy settles on token 2, the compromise, at J = 0.295 (its J even rises to 0.301 and falls back: group climbs an objective of its own, not J). ' +
      'Why it shows the claim: the three learners differ only in normalization, and only group changed the objective being climbed — batch divides every prompt by one constant, which moves the step size but not where training ends.',
    config: {
      version: 1,
      env: SCALES,
      policy: { kind: 'tabular', shareContexts: true },
      mode: 'exact',
      iterations: 300,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 1 },
      algorithms: NORMALIZATIONS,
    },
    look: 'chart-return',
    tour: [
      { text: 'Three GRPOs that differ only in normalization — group (per prompt), batch, none — on one table shared by two prompts. Run it.', target: 'run', action: 'run' },
      { text: 'Batch and none end together at J* = 0.5; group ends at the compromise, 0.295.', target: 'chart-return' },
      { text: 'Claim 5 is observed: group differs from batch, and batch does not differ from none.', target: 'claim-5' },
    ],
    holdsUnder: standardVariants(true),
  },
  // 0.3 s. Not testable under every variant (the verdict depends on the policy alone); all three end at 0.55.
  {
    id: 'table-per-prompt-not-testable',
    claim: 5,
    expect: 'not testable',
    title: 'A table per prompt: normalization cannot move the end point, so claim 5 is not testable',
    text:
      'The same two prompts, but each with its own table: each prompt now learns its own best token, whatever the normalization, and all three learners end at J = 0.55 (1 for A, 0.1 for B). ' +
      'Why: with separate parameters a normalization only rescales each prompt\'s step size: it can change how fast a prompt gets there, never where it ends. ' +
      'So the check says not testable — the claim is about parameters shared across prompts, which is what the previous lesson has.',
    config: {
      version: 1,
      env: SCALES,
      mode: 'exact',
      iterations: 300,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 1 },
      algorithms: NORMALIZATIONS,
    },
    look: 'chart-return',
    tour: [
      { text: 'Run it: the same three normalizations, a table per prompt.', target: 'run', action: 'run' },
      { text: 'All three end at the same J: the table lets each prompt find its own best token.', target: 'chart-return' },
    ],
    holdsUnder: standardVariants(true),
  },
  // 0.2 s. Not testable under every variant: the verdict depends on the number of contexts alone.
  {
    id: 'one-prompt-group-is-batch',
    claim: 5,
    expect: 'not testable',
    title: 'With one prompt, group and batch normalization are the same thing: not testable',
    text:
      'On the lock there is one prompt, so the group of every rollout is the whole batch: group and batch normalization divide by the same spread and subtract the same mean. ' +
      'The two curves coincide exactly (both at J* by iteration 10), and the check says not testable: the difference needs several prompts.',
    config: {
      version: 1,
      env: { preset: 'lock' },
      mode: 'exact',
      iterations: 100,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 2 },
      algorithms: [{ id: 'grpo' }, { id: 'grpo-batch', preset: 'grpo', normalization: 'batch', label: 'GRPO · batch norm' }],
    },
    look: 'chart-return',
    tour: [{ text: 'Run it: one line hides the other.', target: 'run', action: 'run' }],
    holdsUnder: standardVariants(true),
  },
];

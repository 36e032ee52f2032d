// The paper's five claims in plain words, for the Claims view and the verdict panel: what the
// claim says, what the paper says and under which condition, and how the explorer decides it
// (docs/claims.md, rules version 2). Every text of the claims lab that is not generated from the
// numbers is here, in one place.

export type ClaimNumber = 1 | 2 | 3 | 4 | 5;
export const CLAIM_NUMBERS: readonly ClaimNumber[] = [1, 2, 3, 4, 5];

export interface ClaimText {
  /** A few words, for the verdict panel's rows. */
  short: string;
  /** The claim in plain words (one sentence). */
  plain: string;
  /** What the paper says. */
  paper: string;
  /** The condition under which it says so. */
  condition: string;
  /** How the explorer decides the verdict (rules version 2). */
  rule: string;
  /** What an experiment needs for the claim to be testable. */
  needs: string;
}

export const CLAIM_TEXT: Record<ClaimNumber, ClaimText> = {
  1: {
    short: 'REINFORCE with a group baseline reaches J*',
    plain: 'Plain REINFORCE with a group baseline (GRAE, or RLOO) eventually finds the best possible policy.',
    paper:
      'Without discounting, REINFORCE with the group-relative advantage is unbiased gradient ascent on the expected return J, so it converges to the optimum J*: slowly, but it gets there.',
    condition: 'Undiscounted training (γ = 1); the rule is reinforce with advantage grae or rloo. The claim promises nothing for γ < 1.',
    rule: 'Observed if every seed of every such algorithm ends at J* (within 1% of the reward range); not observed if some seed is stuck below it (not reached in the iterations run: the claim is about the limit); otherwise undecided.',
    needs: 'REINFORCE or RLOO in the experiment, and γ = 1.',
  },
  2: {
    short: 'PPO with GRAE can make J go down',
    plain: 'PPO-style updates with a group-relative advantage can make the expected return go down from one iteration to the next.',
    paper:
      'With a critic-free advantage shared by every turn, the clipped PPO objective is not a lower bound on the improvement of J, so an update can decrease J: there is no monotonic-improvement guarantee.',
    condition: 'Exact updates (no sampling noise), PPO-style rule with GRAE or RLOO advantages and token ratios (PPO+GRAE, GRPO).',
    rule:
      'Observed if such an algorithm drops (J falls by 0.1% of the reward range or more in one update) in clearly more seeds than its control: the same algorithm with the exact advantage, or reverse-order SeeUPO at the same step. Drops without a control are undecided; not observed if no seed drops and every seed has settled. Not testable in sampled mode, where a drop may be noise.',
    needs: 'Exact mode and PPO+GRAE or GRPO (ratio token).',
  },
  3: {
    short: 'Critic-free methods can miss J* where reverse-order SeeUPO reaches it',
    plain: 'Methods that update every turn at once, without a critic, can get stuck below the optimum on a problem where SeeUPO in reverse order finds it.',
    paper:
      'Updating all turns simultaneously with a shared advantage can commit an early turn before the later turns have learned what pays; SeeUPO updates turns one at a time, last to first (backward induction), and reaches the optimum.',
    condition:
      'The same start for both (the same seed index); reverse-order SeeUPO with its M-correction and GRAE advantages (normalization none or batch), against REINFORCE, RLOO, PPO+GRAE, GRPO or GSPO.',
    rule:
      'Pairs a critic-free method with reverse-order SeeUPO at the same learning rate. Observed if on some seed SeeUPO (reverse) is at J* while the critic-free method is stuck; not observed if every critic-free seed reaches J*, or once every seed has settled without such a seed; otherwise undecided.',
    needs: 'A critic-free algorithm and reverse-order SeeUPO.',
  },
  4: {
    short: 'Reverse-order SeeUPO improves monotonically and reaches J*; the order matters',
    plain:
      'SeeUPO in reverse order never lowers the expected return and ends at the optimum; the same algorithm in forward or random order need not.',
    paper:
      'Updating the turns in reverse order with the M-correction gives a monotonic-improvement guarantee per iteration and converges to the optimum by backward induction; the guarantee rests on the order.',
    condition: 'A tabular policy (each turn its own parameters), exact updates, reverse order with M-correction, GRAE advantages.',
    rule:
      'The guarantee: (a) no drop of J (exact mode only) and (b) every seed at J*; observed if both are, not observed if either is not. (c) A twin in forward or random order does worse (a clearly lower share at J*, or at least 1.5× and 3 iterations slower) has its own verdict, shown beside it, once both have settled.',
    needs: 'Reverse-order SeeUPO, ideally exact mode and a forward- or random-order twin.',
  },
  5: {
    short: 'Group std normalization moves where training ends; batch does not',
    plain:
      'Dividing advantages by each group’s standard deviation (as GRPO does) can change which policy training ends at; normalizing over the whole batch does not.',
    paper:
      'Group std normalization reweights prompts by how noisy their rewards are, which changes the objective being optimized; batch normalization rescales every prompt alike and keeps the optimum where it was.',
    condition:
      'Two algorithms that differ only in normalization (group against batch), on a policy that shares parameters across prompts (a shared table or an MLP) and several contexts per batch.',
    rule:
      'Not testable on a plain table (normalization then only rescales step sizes). Once every seed has settled: observed if group and batch end in different places (clearly different shares at J*, or mean final J apart by 1% of the reward range with 95% intervals apart) while batch ends where no normalization does; not observed otherwise.',
    needs: 'A pair of normalization twins, e.g. GRPO and a copy with normalization batch, on two-prompts with a table shared across contexts.',
  },
};

export const VERDICT_WORDS = ['observed', 'not-observed', 'undecided', 'not-testable'] as const;
export type VerdictWord = (typeof VERDICT_WORDS)[number];

/** "not observed" → "not-observed": the verdict as an attribute value (data-verdict, data-expect). */
export const verdictWord = (v: string): VerdictWord => v.replace(/ /g, '-') as VerdictWord;

/** What a verdict means, one line each (docs/claims.md). */
export const VERDICT_MEANING: Record<VerdictWord, string> = {
  observed: 'the experiment shows what the claim says',
  'not-observed': 'the experiment had its chance, and it did not happen',
  undecided: 'a seed that matters is still moving: run longer',
  'not-testable': 'the experiment lacks what the check needs',
};

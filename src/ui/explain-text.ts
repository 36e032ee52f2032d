// Text of the "What am I looking at?" panel (docs/math.md and docs/claims.md). The intro and the update
// formulas are generated from the experiment and the algorithms' fields, so an edited field
// (a clip ε, an order) shows in its formula; the claims are the paper's, per named algorithm.

import { ALGORITHM_PRESETS, FIELDS_USED_BY_RULE, algorithmLabel, presetRecord, type AlgorithmRecord } from '../core/algo/records';
import { needsMonteCarlo, type Experiment } from '../core/config/resolve';
import { seedsText } from './live';

export interface AlgorithmExplanation {
  id: string;
  label: string;
  /** What it does, in one or two sentences. */
  what: string;
  /** Its update, line by line, in plain text with unicode symbols. */
  formula: string[];
  /** The paper's claim about it (or the nearest named algorithm's, for a custom one). */
  claim: string;
  /** For a named algorithm with edited fields: which fields differ from the preset; else null. */
  edited: string | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one-paragraph introduction for first-time visitors. */
export function introText(exp: Experiment, Jstar: number): string {
  const { turns: T, vocab: V, tokensPerTurn: L, contexts } = exp.env;
  const sequences = Math.pow(V, T * L);
  const prompt = contexts === 1 ? 'a single prompt' : `one of ${contexts} prompts drawn at random`;
  const jHow = needsMonteCarlo(exp.env)
    ? `estimated by Monte Carlo (${exp.mcSamples.toLocaleString('en-US')} samples), since there are too many sequences to enumerate`
    : `computed exactly by enumerating all ${(contexts * sequences).toLocaleString('en-US')} token sequences`;
  const mode =
    exp.mode === 'exact'
      ? 'This experiment runs in exact mode: every update uses all trajectories weighted by their probability, as if G were infinite, so a drop in J comes from the algorithm, not from sampling.'
      : `This experiment runs in sampled mode: every update uses G = ${exp.groupSize} sampled rollouts per prompt, so curves carry sampling noise.`;
  return (
    `Each episode starts from ${prompt}; the policy then acts for T = ${T} turns, each turn a response of ${plural(L, 'token')} from a vocabulary of V = ${V}, ` +
    (exp.env.turnRewards
      ? `and besides the reward for the whole episode every turn before the last pays a reward of its own (per-turn rewards; J counts their undiscounted sum). Read the ${T} turns as ${T} agents acting one after another and sharing these rewards: the multi-turn setting of the SeeUPO paper. `
      : `and only the whole episode is rewarded. Read the ${T} turns as ${T} agents acting one after another and sharing one reward: the multi-turn setting of the SeeUPO paper. `) +
    `J is the expected return of the current policy (${jHow}); J* = ${fmt(Jstar)} is the best possible, the best sequence for every prompt. ` +
    `Each curve is one algorithm's mean J over ${seedsText(exp)} with its 95% band, and the dashed line is J*. ${mode} ` +
    'What to look for: which curves reach J* and which stall below it (a local optimum of the reward table), whether a curve ever goes down (the monotonic-improvement claim), ' +
    'and how fast each gets 95% of the way; the table and the sentences under the chart state each of these from the numbers.'
  );
}

const fmt = (v: number) => (Number.isFinite(v) ? String(Number(v.toFixed(3))) : 'n/a');

// ---------------------------------------------------------------------------------------------

function advantageLines(a: AlgorithmRecord, exp: Experiment): string[] {
  const lines: string[] = [];
  const base = a.advantage === 'rloo' ? 'R_i − mean_{j≠i} R_j' : 'R − mean_g R';
  if (a.advantage === 'gae') {
    lines.push(`Critic V_φ per token: δ = r + γ·V(next) − V(current), Â = Σ_k (γλ)^k δ_{+k}, λ = ${a.gaeLambda}${a.criticLr !== null ? `, critic lr ${a.criticLr}` : ''}`);
    if (a.normalization === 'group') lines.push('Â ← Â / (std_g R + ε)   (per-prompt std)');
    if (a.normalization === 'batch') lines.push('Â ← (Â − μ_B) / σ_B   (one mean and std over the whole batch)');
    return lines;
  }
  const what = a.advantage === 'rloo' ? '(leave-one-out: the other G − 1 rollouts of the prompt)' : '(mean over the G rollouts of the same prompt)';
  if (a.normalization === 'group') lines.push(`Â = (${base}) / std_g R   ${what}`);
  else lines.push(`Â = ${base}   ${what}`);
  if (a.normalization === 'batch') lines.push('Â ← (Â − μ_B) / σ_B   (one mean and std over the whole batch)');
  if (exp.env.turnRewards) lines.push(`with per-turn rewards, turn t's Â is built the same way from its reward-to-go G_t = Σ_{k≥t} γ^(k−t)·r_k${exp.env.gamma !== 1 ? `, γ = ${exp.env.gamma}` : ''}`);
  else if (exp.env.gamma !== 1) lines.push(`turn t's tokens are fed γ^(T−t)·Â, γ = ${exp.env.gamma}`);
  return lines;
}

function updateLines(a: AlgorithmRecord): string[] {
  const eps = `ε = ${a.clip}`;
  const passes = `${plural(a.epochs, 'epoch')}${a.minibatches > 1 ? ` of ${a.minibatches} minibatches` : ''}`;
  switch (a.rule) {
    case 'reinforce':
      return ['one gradient step per iteration on Σ_tokens Â · log π_θ(token), all turns at once'];
    case 'ppu':
      return a.ratio === 'sequence'
        ? [
            'sequence ratio ρ_τ = (Π_tokens π_θ/π_old)^(1/n) over the rollout\'s n tokens',
            `maximize n · min(ρ_τ Â, clip(ρ_τ, 1±ε) Â), ${eps}; all turns at once, ${passes}`,
          ]
        : ['token ratio ρ = π_θ(token) / π_old(token)', `maximize Σ_tokens min(ρ Â, clip(ρ, 1±ε) Â), ${eps}; all turns at once, ${passes}`];
    case 'sequential': {
      const order =
        a.order === 'reverse' ? 'turns T, T−1, …, 1 (reverse: backward induction)' : a.order === 'forward' ? 'turns 1, …, T (forward)' : 'a fresh random order of the turns every iteration';
      const ratio = a.turnRatio === 'product' ? 'ρ_t = Π_{tokens of turn t} π_θ/π_old' : 'ρ_t = L · geometric mean of turn t\'s token ratios';
      const m = !a.mCorrection
        ? 'M = 1 throughout (no correction)'
        : `then M ← M · π_θ(a_t)/π_old(a_t) for each rollout (M starts at 1)${a.mClip !== null ? `, M clipped to [${Number((1 - a.mClip).toFixed(6))}, ${Number((1 + a.mClip).toFixed(6))}]` : ''}`;
      return [`one turn at a time: ${order}`, ratio, `maximize min(ρ_t·M·Â, clip(ρ_t, 1±ε)·M·Â), ${eps}, ${passes} per turn`, m];
    }
  }
}

const PRESET_TEXT: Record<string, { what: string; claim: string }> = {
  reinforce: {
    what: 'Plain policy gradient with a group baseline: every token of a rollout is pushed up or down in proportion to how much better the rollout did than the other rollouts of its prompt.',
    claim: 'Paper, claim 1: REINFORCE with GRAE converges to the global optimum J* when undiscounted (γ = 1).',
  },
  rloo: {
    what: 'REINFORCE with a leave-one-out baseline: each rollout is compared with the mean of the other G − 1 rollouts of its prompt.',
    claim: 'Not one of the paper\'s named claims; in exact mode RLOO equals GRAE, so claim 1 (REINFORCE with GRAE reaches J* when γ = 1) covers it there.',
  },
  grpo: {
    what: 'PPO\'s clipped token objective on group-normalized advantages, with every turn updated at once and no critic.',
    claim:
      'Paper: PPO with GRAE loses PPO\'s monotonic improvement (claim 2); no critic-free simultaneous method is guaranteed to converge in multi-turn settings (claim 3); per-prompt std normalization can change where training converges (claim 5).',
  },
  'ppo-grae': {
    what: 'PPO\'s clipped token objective on group-relative advantages without normalization, every turn at once, no critic.',
    claim: 'Paper, claim 2: PPO with GRAE loses PPO\'s monotonic improvement; claim 3: as a critic-free simultaneous method it has no convergence guarantee in multi-turn settings.',
  },
  gspo: {
    what: 'Like GRPO, but with one sequence-level ratio per rollout (the geometric mean of its token ratios), clipped as a whole.',
    claim:
      'Paper, claim 3: critic-free and simultaneous, so no convergence guarantee in multi-turn settings; its group normalization can change where training converges (claim 5). GSPO\'s own paper clips far tighter on long responses; here ε starts at 0.2 like the others.',
  },
  'ppo-gae': {
    what: 'Classic PPO with a learned critic: per-token advantages from GAE, batch-normalized, every turn at once. In exact mode the critic is replaced by the exact values.',
    claim: 'The "needs a critic" reference: the paper\'s negative results are about critic-free methods, and this shows what a critic buys on the same task.',
  },
  seeupo: {
    what: 'Sequential update: one turn at a time from the last turn back to the first (backward induction), each turn\'s objective weighted by M, the probability ratio of the turns already updated; one batch normalization for every prompt.',
    claim: 'Paper, claim 4: with reverse order SeeUPO improves J monotonically (the guarantee is for exact updates) and converges to the global optimum J*.',
  },
  'seeupo-forward': {
    what: 'SeeUPO\'s sequential update with the turns in forward order, first turn first.',
    claim: 'Paper, claim 4: forward order need not reach J*: a sequential (HAML) update only guarantees a Nash equilibrium, where no single turn can improve alone.',
  },
  'seeupo-random': {
    what: 'SeeUPO\'s sequential update with a fresh random order of the turns every iteration (HAML\'s setting).',
    claim: 'Paper, claim 4: random order need not reach J*: a sequential (HAML) update only guarantees a Nash equilibrium, where no single turn can improve alone.',
  },
};

/** Fields that define an algorithm under its rule (gae-only fields only with gae advantages). */
function definingFields(a: AlgorithmRecord): (keyof AlgorithmRecord)[] {
  const used = FIELDS_USED_BY_RULE[a.rule].filter((k) => a.advantage === 'gae' || (k !== 'gaeLambda' && k !== 'criticLr'));
  return ['rule', ...used];
}

function fieldDiffs(a: AlgorithmRecord, b: AlgorithmRecord): (keyof AlgorithmRecord)[] {
  const keys = new Set([...definingFields(a), ...(a.rule === b.rule ? [] : definingFields(b))]);
  return [...keys].filter((k) => a[k] !== b[k]);
}

const show = (v: unknown) => (v === null ? 'none' : String(v));

function describeFields(a: AlgorithmRecord): string {
  const adv = a.advantage === 'gae' ? 'GAE advantages from a learned critic' : a.advantage === 'rloo' ? 'leave-one-out (RLOO) advantages' : 'group-relative (GRAE) advantages';
  const norm = a.normalization === 'none' ? 'no normalization' : a.normalization === 'group' ? 'per-prompt std normalization' : 'batch normalization';
  const rule =
    a.rule === 'reinforce'
      ? 'a REINFORCE step'
      : a.rule === 'ppu'
        ? `a PPO-clip update of every turn at once (${a.ratio}-level ratio)`
        : `a sequential update, one turn at a time in ${a.order} order${a.mCorrection ? '' : ', without the M correction'}`;
  return `A custom algorithm: ${rule} with ${adv} and ${norm}.`;
}

/** Text for one algorithm of the plan: named ones get the paper's wording, custom ones a description from their fields. */
export function explainAlgorithm(a: AlgorithmRecord, exp: Experiment): AlgorithmExplanation {
  const formula = [...advantageLines(a, exp), ...updateLines(a)];
  if (a.lr !== null) formula.push(`learning rate ${a.lr}, its own (the experiment's is ${exp.optimizer.lr})`);
  const label = algorithmLabel(a);
  if (Object.hasOwn(ALGORITHM_PRESETS, a.id) && PRESET_TEXT[a.id]) {
    const preset = presetRecord(a.id);
    const diffs = fieldDiffs(a, preset);
    const edited = diffs.length ? `Edited here: ${diffs.map((k) => `${k} ${show(a[k])} (preset ${show(preset[k])})`).join(', ')}; the claim is about the preset's fields.` : null;
    return { id: a.id, label, what: PRESET_TEXT[a.id].what, formula, claim: PRESET_TEXT[a.id].claim, edited };
  }
  let best: string | null = null, bestDiffs: (keyof AlgorithmRecord)[] = [];
  for (const id of Object.keys(ALGORITHM_PRESETS)) {
    const d = fieldDiffs(a, presetRecord(id));
    if (best === null || d.length < bestDiffs.length) { best = id; bestDiffs = d; }
  }
  const claim =
    best === null
      ? 'No named algorithm to compare with.'
      : bestDiffs.length === 0
        ? `Same fields as ${ALGORITHM_PRESETS[best].label}. ${PRESET_TEXT[best].claim}`
        : `Closest named algorithm: ${ALGORITHM_PRESETS[best].label} (differs in ${bestDiffs.join(', ')}), about which: ${PRESET_TEXT[best].claim} The paper's claims cover the named fields only.`;
  return { id: a.id, label, what: describeFields(a), formula, claim, edited: null };
}

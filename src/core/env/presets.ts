import type { Env, Noise } from './types';

/** Sizes a preset's reward rule accepts; each preset states its own ranges. */
export interface PresetSizes {
  turns: number;
  vocab: number;
  tokensPerTurn: number;
}

export interface Range {
  min: number;
  max: number;
}

export interface EnvPreset {
  name: string;
  title: string;
  /**
   * What the environment is and what it is meant to show, generated from its actual sizes (the
   * number of turns, the code, the exit and the payoffs), never a default paragraph.
   */
  describe: (sizes: PresetSizes) => string;
  defaults: PresetSizes;
  allowed: { turns: Range; vocab: Range; tokensPerTurn: Range };
  contexts: number;
  noise: Noise[];
  /** Mean reward of each token sequence, per context: the preset's rule. */
  reward: (sizes: PresetSizes, context: number, tokens: Int32Array) => number;
}

/** Turn t's action as one number (its L tokens read base V). */
function turnAction(sizes: PresetSizes, tokens: Int32Array, t: number): number {
  let a = 0;
  for (let k = t * sizes.tokensPerTurn; k < (t + 1) * sizes.tokensPerTurn; k++) a = a * sizes.vocab + tokens[k];
  return a;
}

function lockReward(code: (t: number) => number, codeReward: number, exitToken: number, exitReward: number) {
  return (sizes: PresetSizes, tokens: Int32Array): number => {
    if (turnAction(sizes, tokens, 0) === exitToken) return exitReward;
    for (let t = 0; t < sizes.turns; t++) if (turnAction(sizes, tokens, t) !== code(t)) return 0;
    return codeReward;
  };
}

const lockCode = (t: number) => t % 2; // 0-1-0-1…
const lock = lockReward(lockCode, 1, 2, 0.3);
const lockB = lockReward((t) => (t < 2 ? 2 : 1), 0.25, 0, 0.2); // code 2-2-1…, exit token 0

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const words = (n: number) => NUMBER_WORDS[n] ?? String(n);
const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/** "Five turns over three tokens" (a turn of several tokens: "Two turns of two tokens over a two-token vocabulary"). */
function turnsOver(z: PresetSizes): string {
  const turns = `${cap(words(z.turns))} ${z.turns === 1 ? 'turn' : 'turns'}`;
  return z.tokensPerTurn === 1 ? `${turns} over ${words(z.vocab)} tokens` : `${turns} of ${words(z.tokensPerTurn)} tokens over a ${words(z.vocab)}-token vocabulary`;
}

/** "0-1-0-1-0": the code's token at each of the turns. */
const codeOf = (code: (t: number) => number, turns: number) => Array.from({ length: turns }, (_, t) => code(t)).join('-');

/** "1/81": the chance of k given tokens under a uniform policy over V. */
const oneIn = (vocab: number, k: number) => `1/${vocab ** k}`;

export const ENV_PRESETS: Record<string, EnvPreset> = {
  lock: {
    name: 'lock',
    title: 'Combination lock with a safe exit',
    describe: (z) =>
      `${turnsOver(z)}. Only the code ${codeOf(lockCode, z.turns)} earns 1; playing token 2 on the first turn is a safe exit that earns 0.3 whatever follows; everything else earns 0. ` +
      `Under the uniform start the exit is worth 0.3 while a first-turn 0 is worth only ${oneIn(z.vocab, z.turns - 1)}, so the exit is a local optimum that can attract learners; ` +
      'backward induction (reverse order) learns the later turns of the code first, which raises the value of a first-turn 0 above the exit. Watch which algorithms escape it.',
    defaults: { turns: 3, vocab: 3, tokensPerTurn: 1 },
    allowed: { turns: { min: 2, max: 6 }, vocab: { min: 3, max: 8 }, tokensPerTurn: { min: 1, max: 1 } },
    contexts: 1,
    noise: [{ kind: 'none' }],
    reward: (s, _x, tok) => lock(s, tok),
  },
  needle: {
    name: 'needle',
    title: 'Needle behind a plateau',
    describe: (z) =>
      `${turnsOver(z)}. First-turn token 1 earns 0.3 whatever follows; first-turn token 0 opens a branch where only ${z.turns === 2 ? 'second-turn token 0' : `token 0 at every later turn (${codeOf(() => 0, z.turns)})`} earns 1; everything else earns 0. ` +
      `The needle is worth ${oneIn(z.vocab, z.turns - 1)} on average under a uniform start, below the 0.3 plateau: a test of whether credit reaches the first turn before it commits.`,
    defaults: { turns: 2, vocab: 8, tokensPerTurn: 1 },
    allowed: { turns: { min: 2, max: 4 }, vocab: { min: 3, max: 16 }, tokensPerTurn: { min: 1, max: 1 } },
    contexts: 1,
    noise: [{ kind: 'none' }],
    reward: (s, _x, tok) => {
      const first = turnAction(s, tok, 0);
      if (first === 1) return 0.3;
      if (first !== 0) return 0;
      for (let t = 1; t < s.turns; t++) if (turnAction(s, tok, t) !== 0) return 0;
      return 1;
    },
  },
  'two-prompts': {
    name: 'two-prompts',
    title: 'Two prompts, one noisy',
    describe: (z) =>
      `Two contexts, ${turnsOver(z).toLowerCase()} each. Context 0 is the lock (the code ${codeOf(lockCode, z.turns)} earns 1, first-turn token 2 exits with 0.3). Context 1 has the code ${codeOf((t) => (t < 2 ? 2 : 1), z.turns)} worth 0.25 and a safe exit (first-turn token 0) worth 0.2, ` +
      'with gaussian reward noise σ = 0.1. Per-prompt std normalization (GRPO) rescales the two prompts differently and so reweights them; batch normalization (SeeUPO) scales both by one constant. ' +
      'With one context the two normalizations coincide, so this is the smallest case where they differ.',
    defaults: { turns: 3, vocab: 3, tokensPerTurn: 1 },
    allowed: { turns: { min: 2, max: 6 }, vocab: { min: 3, max: 8 }, tokensPerTurn: { min: 1, max: 1 } },
    contexts: 2,
    noise: [{ kind: 'none' }, { kind: 'gaussian', sigma: 0.1 }],
    reward: (s, x, tok) => (x === 0 ? lock(s, tok) : lockB(s, tok)),
  },
  tokens: {
    name: 'tokens',
    title: 'Two tokens per turn',
    describe: () =>
      'Two turns of two tokens over a two-token vocabulary. The sequence 01-01 earns 1; any sequence whose first turn is 11 earns 0.4; everything else 0. ' +
      'Here a turn is more than one token, so token-level, turn-level (product or geometric mean) and sequence-level ratios differ.',
    defaults: { turns: 2, vocab: 2, tokensPerTurn: 2 },
    allowed: { turns: { min: 2, max: 2 }, vocab: { min: 2, max: 2 }, tokensPerTurn: { min: 2, max: 2 } },
    contexts: 1,
    noise: [{ kind: 'none' }],
    reward: (s, _x, tok) => {
      const first = turnAction(s, tok, 0);
      if (first === 3) return 0.4; // "11"
      if (first === 1 && turnAction(s, tok, 1) === 1) return 1; // "01" "01"
      return 0;
    },
  },
};

export const ENV_PRESET_NAMES = Object.keys(ENV_PRESETS) as [string, ...string[]];

/**
 * The environment in words, from its actual parameters: a preset's own description at the sizes
 * in use, or for a custom table its sizes, the best sequence and what it pays, per-turn rewards,
 * the discount and the noise.
 */
export function describeEnv(env: Env, preset: string | null): string {
  const p = preset ? ENV_PRESETS[preset] : undefined;
  const sizes = { turns: env.turns, vocab: env.vocab, tokensPerTurn: env.tokensPerTurn };
  const extra = [
    env.gamma !== 1 ? `discounted by γ = ${env.gamma}` : '',
    env.turnRewards && !p ? 'with rewards paid at the end of earlier turns too' : '',
  ].filter(Boolean);
  const tail = extra.length ? ` Training is ${extra.join(', ')}.` : '';
  if (p) return p.describe(sizes) + tail;
  const contexts = env.contexts === 1 ? 'One context' : `${cap(words(env.contexts))} contexts`;
  const best = env.returns.map((r, x) => {
    let at = 0;
    for (let s = 1; s < r.length; s++) if (r[s] > r[at]) at = s;
    return `${env.contexts > 1 ? `context ${x}: ` : ''}${sequenceName(at, env)} pays ${round(r[at])}`;
  });
  const noisy = env.noise.some((n) => n.kind !== 'none') ? ' Rewards are noisy.' : '';
  return `A custom table: ${contexts.toLowerCase()}, ${turnsOver(sizes).toLowerCase()}. The best sequence ${env.contexts > 1 ? 'per context — ' : ''}${best.join('; ')}.${noisy}${tail}`;
}

const round = (v: number) => String(Math.round(v * 1000) / 1000);

/** Sequence s (lexicographic, first token most significant) as "1-0" (a turn of several tokens: "01-01"). */
function sequenceName(s: number, env: Pick<Env, 'turns' | 'vocab' | 'tokensPerTurn'>): string {
  const n = env.turns * env.tokensPerTurn;
  const tokens: number[] = [];
  for (let k = 0; k < n; k++) {
    tokens.unshift(s % env.vocab);
    s = Math.floor(s / env.vocab);
  }
  const turns: string[] = [];
  for (let t = 0; t < env.turns; t++) turns.push(tokens.slice(t * env.tokensPerTurn, (t + 1) * env.tokensPerTurn).join(''));
  return turns.join('-');
}

import type { Noise } from './types';

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
  /** What the preset is meant to show. */
  description: string;
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

export const ENV_PRESETS: Record<string, EnvPreset> = {
  lock: {
    name: 'lock',
    title: 'Combination lock with a safe exit',
    description:
      'Three turns over three tokens. Only the code 0-1-0 earns 1; playing token 2 on the first turn is a safe exit that earns 0.3 whatever follows; everything else earns 0. ' +
      'Under the uniform start the exit is worth 0.3 while a first-turn 0 is worth only 1/9, so the exit is a local optimum that can attract learners; ' +
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
    description:
      'Two turns over eight tokens. First-turn token 1 earns 0.3 whatever follows; first-turn token 0 opens a branch where only second-turn token 0 earns 1; everything else earns 0. ' +
      'The needle is worth 1/8 on average under a uniform second turn, below the 0.3 plateau: a test of whether credit reaches the first turn before it commits.',
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
    description:
      'Two contexts. Context 0 is the lock (code 0-1-0 earns 1, first-turn token 2 exits with 0.3). Context 1 has the code 2-2-1 worth 0.25 and a safe exit (first-turn token 0) worth 0.2, ' +
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
    description:
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

import type { Estimator, Normalization, RatioLevel, Rule, TurnOrder, TurnRatio } from '../options';
export type { RatioLevel, Rule, TurnOrder, TurnRatio } from '../options';

/** An algorithm is data: the executor interprets these fields (algorithms.md §3–§4). */
export interface AlgorithmRecord {
  id: string;
  advantage: Estimator;
  normalization: Normalization;
  rule: Rule;
  ratio: RatioLevel; // ppu only
  order: TurnOrder; // sequential only
  turnRatio: TurnRatio; // sequential only
  mCorrection: boolean; // sequential only
  mClip: number | null; // sequential only
  clip: number; // ε of PPO-clip; not used by reinforce
  epochs: number; // not used by reinforce
  minibatches: number; // not used by reinforce
  gaeLambda: number; // gae only
  criticLr: number | null; // gae only; null = the policy's learning rate
  lr: number | null; // this algorithm's learning rate; null = the experiment's optimizer.lr
}

export const ALGORITHM_DEFAULTS: Omit<AlgorithmRecord, 'id' | 'rule'> = {
  advantage: 'grae',
  normalization: 'none',
  ratio: 'token',
  order: 'reverse',
  turnRatio: 'product',
  mCorrection: true,
  mClip: null,
  clip: 0.2,
  epochs: 4,
  minibatches: 1,
  gaeLambda: 0.95,
  criticLr: null,
  lr: null,
};

type PresetFields = Partial<AlgorithmRecord> & Pick<AlgorithmRecord, 'advantage' | 'normalization' | 'rule'>;

/** The named algorithms of algorithms.md §4, in the order the app lists them. */
export const ALGORITHM_PRESETS: Record<string, { label: string; fields: PresetFields }> = {
  reinforce: { label: 'REINFORCE', fields: { advantage: 'grae', normalization: 'none', rule: 'reinforce' } },
  rloo: { label: 'RLOO', fields: { advantage: 'rloo', normalization: 'none', rule: 'reinforce' } },
  grpo: { label: 'GRPO', fields: { advantage: 'grae', normalization: 'group', rule: 'ppu', ratio: 'token' } },
  'ppo-grae': { label: 'PPO+GRAE', fields: { advantage: 'grae', normalization: 'none', rule: 'ppu', ratio: 'token' } },
  gspo: { label: 'GSPO', fields: { advantage: 'grae', normalization: 'group', rule: 'ppu', ratio: 'sequence' } },
  'ppo-gae': { label: 'PPO+GAE', fields: { advantage: 'gae', normalization: 'batch', rule: 'ppu', ratio: 'token' } },
  seeupo: {
    label: 'SeeUPO',
    fields: { advantage: 'grae', normalization: 'batch', rule: 'sequential', order: 'reverse', turnRatio: 'product' },
  },
  'seeupo-forward': {
    label: 'SeeUPO (forward)',
    fields: { advantage: 'grae', normalization: 'batch', rule: 'sequential', order: 'forward', turnRatio: 'product' },
  },
  'seeupo-random': {
    label: 'SeeUPO (random)',
    fields: { advantage: 'grae', normalization: 'batch', rule: 'sequential', order: 'random', turnRatio: 'product' },
  },
};

export const ALGORITHM_IDS = Object.keys(ALGORITHM_PRESETS) as [string, ...string[]];

export function presetRecord(name: string, id = name): AlgorithmRecord {
  const p = Object.hasOwn(ALGORITHM_PRESETS, name) ? ALGORITHM_PRESETS[name] : undefined;
  if (!p) throw new Error(`unknown algorithm preset ${name}`);
  return { ...ALGORITHM_DEFAULTS, ...p.fields, id };
}

/** Fields each rule reads; any other rule-specific field is ignored (with a warning). */
export const FIELDS_USED_BY_RULE: Record<Rule, (keyof AlgorithmRecord)[]> = {
  reinforce: ['advantage', 'normalization', 'gaeLambda', 'criticLr', 'lr'],
  ppu: ['advantage', 'normalization', 'ratio', 'clip', 'epochs', 'minibatches', 'gaeLambda', 'criticLr', 'lr'],
  sequential: ['advantage', 'normalization', 'order', 'turnRatio', 'mCorrection', 'mClip', 'clip', 'epochs', 'minibatches', 'lr'],
};

/** Fields only gae advantages read (the critic's λ and learning rate). */
export const GAE_ONLY_FIELDS = ['gaeLambda', 'criticLr'] as const satisfies readonly (keyof AlgorithmRecord)[];

/**
 * The fields an algorithm actually reads: its rule's fields, less the gae-only ones unless its
 * advantage is gae. Resolving warns about the rest, links leave them out when they match the
 * preset, and the page greys them out.
 */
export function fieldsRead(rec: Pick<AlgorithmRecord, 'rule' | 'advantage'>): Set<keyof AlgorithmRecord> {
  const used = new Set<keyof AlgorithmRecord>(FIELDS_USED_BY_RULE[rec.rule] ?? []);
  if (rec.advantage !== 'gae') for (const k of GAE_ONLY_FIELDS) used.delete(k);
  return used;
}

export function algorithmLabel(rec: AlgorithmRecord): string {
  return Object.hasOwn(ALGORITHM_PRESETS, rec.id) ? ALGORITHM_PRESETS[rec.id].label : rec.id;
}

/** The learning rate a run of this algorithm uses: its own, else the experiment's optimizer.lr. */
export function algorithmLr(rec: Pick<AlgorithmRecord, 'lr'>, optimizerLr: number): number {
  return rec.lr ?? optimizerLr;
}

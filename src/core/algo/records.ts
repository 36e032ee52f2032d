import type { Estimator, Normalization, RatioLevel, Rule, TurnOrder, TurnRatio } from '../options';
export type { RatioLevel, Rule, TurnOrder, TurnRatio } from '../options';

/** An algorithm is data: the executor interprets these fields (docs/math.md "One iteration", "Update rules"). */
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
  /** The named algorithm an entry with an id of its own starts from (its `preset`); absent otherwise. */
  preset?: string;
  /** The name the user gave it (shown instead of the derived label); absent when none. */
  label?: string;
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

/** The named algorithms of docs/math.md "The named algorithms", in the order the app lists them. */
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

/** Fields that name an algorithm (its line's identity), not what it computes: never compared as behaviour. */
export const NAME_FIELDS = ['id', 'preset', 'label'] as const satisfies readonly (keyof AlgorithmRecord)[];

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

/** The named algorithm a record starts from: its `preset`, or its id when that names one; null for a rule-defined algorithm. */
export function presetOf(rec: Pick<AlgorithmRecord, 'id' | 'preset'>): string | null {
  if (rec.preset !== undefined && Object.hasOwn(ALGORITHM_PRESETS, rec.preset)) return rec.preset;
  return Object.hasOwn(ALGORITHM_PRESETS, rec.id) ? rec.id : null;
}

/** The copy number of an id made by adding a preset again ("grpo-2" → 2), else null. */
export function copyNumber(rec: Pick<AlgorithmRecord, 'id' | 'preset'>): number | null {
  const p = presetOf(rec);
  const m = p && rec.id !== p ? /^(.*)-(\d{1,3})$/.exec(rec.id) : null;
  return m && m[1] === p ? Number(m[2]) : null;
}

/** How a changed field reads in a label: "batch norm", "forward", "lr 0.3". */
const CHANGE_TEXT: Partial<Record<keyof AlgorithmRecord, (v: never) => string>> = {
  advantage: (v: string) => v,
  normalization: (v: string) => (v === 'none' ? 'no norm' : `${v} norm`),
  rule: (v: string) => v,
  ratio: (v: string) => `${v} ratio`,
  order: (v: string) => v,
  turnRatio: (v: string) => v,
  mCorrection: (v: boolean) => (v ? 'M correction' : 'no M correction'),
  mClip: (v: number | null) => (v === null ? 'no M clip' : `M clip ${v}`),
  clip: (v: number) => `ε ${v}`,
  epochs: (v: number) => `${v} epoch${v === 1 ? '' : 's'}`,
  minibatches: (v: number) => `${v} minibatch${v === 1 ? '' : 'es'}`,
  gaeLambda: (v: number) => `λ ${v}`,
  criticLr: (v: number | null) => (v === null ? 'critic lr = lr' : `critic lr ${v}`),
  lr: (v: number | null) => (v === null ? 'experiment lr' : `lr ${v}`),
};

/**
 * What the line of an algorithm is called: the name the user gave it; else, for a named
 * algorithm, its name, the copy number ("GRPO #2") and what was edited away from it
 * ("SeeUPO · forward", "GRPO · batch norm"); else its id.
 */
export function algorithmLabel(rec: AlgorithmRecord): string {
  if (rec.label) return rec.label;
  const p = presetOf(rec);
  if (!p || (rec.id !== p && copyNumber(rec) === null)) return rec.id;
  const base = presetRecord(p, rec.id);
  const read = fieldsRead(rec);
  const changes: string[] = [];
  for (const k of Object.keys(CHANGE_TEXT) as (keyof AlgorithmRecord)[]) {
    if (k !== 'rule' && k !== 'advantage' && !read.has(k)) continue;
    if (rec[k] === base[k]) continue;
    changes.push((CHANGE_TEXT[k] as (v: unknown) => string)(rec[k]));
  }
  return [baseName(rec), ...changes].join(' · ');
}

/** The name without the edits: "GRPO", "GRPO #2", or the id of an algorithm no preset names (or one with an id of its own). */
export function baseName(rec: Pick<AlgorithmRecord, 'id' | 'preset'>): string {
  const p = presetOf(rec);
  const copy = copyNumber(rec);
  if (!p || (rec.id !== p && copy === null)) return rec.id;
  return ALGORITHM_PRESETS[p]!.label + (copy !== null ? ` #${copy}` : '');
}

/** The learning rate a run of this algorithm uses: its own, else the experiment's optimizer.lr. */
export function algorithmLr(rec: Pick<AlgorithmRecord, 'lr'>, optimizerLr: number): number {
  return rec.lr ?? optimizerLr;
}

import { resolveConfig } from '../core/config/resolve';
import { LIMITS } from '../core/config/schema';
import { ENV_PRESETS } from '../core/env/presets';
import { ALGORITHM_DEFAULTS, ALGORITHM_IDS, ALGORITHM_PRESETS, algorithmLabel, baseName, presetRecord, type AlgorithmRecord } from '../core/algo/records';
import { isCustomEnv } from './controls/registry';
import { isRecord } from '../core/config/fields';

// Structural edits of a draft (for the store's replaceDraft): add or remove an algorithm,
// switch the environment between presets and a custom table, resize a custom table. Pure.

type Draft = Record<string, unknown>;
export type DraftEdit = { ok: true; draft: Draft } | { ok: false; error: string };

/** The reward editor shows tables of at most this many cells (contexts · V^(T·L)). */
export const MAX_EDITOR_CELLS = 512;

/** The draft's algorithm entries; a config that leaves them out runs the nine named ones (resolveConfig). */
export function algorithmsOf(draft: Draft): unknown[] {
  if (Array.isArray(draft.algorithms)) return draft.algorithms;
  return draft.algorithms === undefined ? ALGORITHM_IDS.map((id) => ({ id })) : [];
}

/** An algorithm entry with its preset and overrides applied (values may still be invalid text). */
export function effectiveAlgorithm(entry: unknown): AlgorithmRecord {
  const e = isRecord(entry) ? entry : {};
  const id = typeof e.id === 'string' ? e.id : '';
  const base =
    typeof e.preset === 'string' && Object.hasOwn(ALGORITHM_PRESETS, e.preset) ? e.preset : Object.hasOwn(ALGORITHM_PRESETS, id) ? id : undefined;
  const rec: AlgorithmRecord = base ? presetRecord(base, id) : { ...ALGORITHM_DEFAULTS, id, rule: 'reinforce' };
  const out = rec as unknown as Record<string, unknown>;
  for (const k of [...Object.keys(ALGORITHM_DEFAULTS), 'rule']) if (e[k] !== undefined) out[k] = e[k];
  if (typeof e.preset === 'string') rec.preset = e.preset;
  if (typeof e.label === 'string' && e.label.trim() !== '') rec.label = e.label.trim();
  return rec;
}

/** Label of an algorithm entry, as the plan labels its line: its name, or the preset's name with what was edited ("SeeUPO · forward"), or its id. */
export function entryLabel(entry: unknown): string {
  const id = isRecord(entry) && typeof entry.id === 'string' ? entry.id : '';
  return id ? algorithmLabel(effectiveAlgorithm(entry)) : '(no id)';
}

/** One line: "GRPO · grae · group norm · ppu · token ratio · ε 0.2" (and "· lr 0.5" with a learning rate of its own). */
export function algorithmSummary(entry: unknown): string {
  const r = effectiveAlgorithm(entry);
  const parts = [r.label ?? baseName(r), String(r.advantage), r.normalization === 'none' ? 'no norm' : `${String(r.normalization)} norm`, String(r.rule)];
  if (r.rule === 'ppu') parts.push(`${String(r.ratio)} ratio`);
  if (r.rule === 'sequential') parts.push(String(r.order), String(r.turnRatio));
  if (r.rule !== 'reinforce') parts.push(`ε ${String(r.clip)}`);
  if (r.lr !== null && r.lr !== undefined) parts.push(`lr ${String(r.lr)}`);
  return parts.join(' · ');
}

/** A new entry for a preset, with an id no other entry has: "grpo", then "grpo-2", "grpo-3", … */
export function addAlgorithm(draft: Draft, presetId: string): DraftEdit {
  if (!Object.hasOwn(ALGORITHM_PRESETS, presetId)) return { ok: false, error: `unknown algorithm preset "${presetId}"` };
  const list = algorithmsOf(draft);
  if (list.length >= LIMITS.algorithms) return { ok: false, error: `at most ${LIMITS.algorithms} algorithms; remove one first` };
  const taken = new Set(list.map((e) => (isRecord(e) ? e.id : undefined)));
  let id = presetId;
  for (let n = 2; taken.has(id); n++) id = `${presetId}-${n}`;
  const entry = id === presetId ? { id } : { id, preset: presetId };
  return { ok: true, draft: { ...draft, algorithms: [...list, entry] } };
}

/** The draft without entry i; an experiment keeps at least one algorithm. */
export function removeAlgorithm(draft: Draft, index: number): DraftEdit {
  const list = algorithmsOf(draft);
  if (index < 0 || index >= list.length) return { ok: false, error: `no algorithm at position ${index}` };
  if (list.length <= 1) return { ok: false, error: 'an experiment needs at least one algorithm' };
  return { ok: true, draft: { ...draft, algorithms: list.filter((_, i) => i !== index) } };
}

/** The env switched to a named preset (its own sizes, contexts and noise; γ kept). */
export function setEnvPreset(draft: Draft, name: string): DraftEdit {
  if (!Object.hasOwn(ENV_PRESETS, name)) return { ok: false, error: `unknown environment preset "${name}"` };
  const old = isRecord(draft.env) ? draft.env : {};
  const env: Record<string, unknown> = { preset: name };
  if (old.gamma !== undefined) env.gamma = old.gamma;
  return { ok: true, draft: { ...draft, env } };
}

const cellsOf = (contexts: number, s: { vocab: number; turns: number; tokensPerTurn: number }) =>
  contexts * Math.pow(s.vocab, s.turns * s.tokensPerTurn);

/** The current env as a custom table (the preset's reward table, its noise and γ), to edit from. */
export function toCustomEnv(draft: Draft): DraftEdit {
  if (isCustomEnv(draft)) return { ok: true, draft };
  const env = isRecord(draft.env) ? draft.env : {};
  let resolved;
  try {
    // Only the env matters here: resolve it alone, so other fields' problems don't block the switch.
    resolved = resolveConfig({ version: 1, env, policy: draft.policy, mode: draft.mode, iterations: 1, seeds: 1, algorithms: [{ id: 'reinforce' }] }).env;
  } catch (e) {
    return { ok: false, error: `fix the environment first: ${(e as Error).message}` };
  }
  const cells = cellsOf(resolved.contexts, resolved);
  if (cells > MAX_EDITOR_CELLS)
    return { ok: false, error: `this table has ${cells.toLocaleString('en-US')} cells; the editor shows at most ${MAX_EDITOR_CELLS}: lower the sizes first` };
  const noise = resolved.noise.every((n) => JSON.stringify(n) === JSON.stringify(resolved.noise[0])) ? resolved.noise[0] : resolved.noise;
  const custom: Record<string, unknown> = {
    turns: resolved.turns,
    vocab: resolved.vocab,
    tokensPerTurn: resolved.tokensPerTurn,
    contexts: resolved.contexts,
    rewards: resolved.rewards.map((r) => Array.from(r)),
    noise,
    gamma: resolved.gamma,
  };
  if (resolved.contextsPerBatch !== resolved.contexts) custom.contextsPerBatch = resolved.contextsPerBatch;
  // a preset's per-turn rewards (an override in the config) go along, zeros included
  if (Array.isArray(env.turnRewards)) custom.turnRewards = structuredClone(env.turnRewards);
  return { ok: true, draft: { ...draft, env: custom } };
}

/** Sizes of a custom table when they are valid integers. */
export interface TableShape {
  contexts: number;
  /** V^(T·L): cells of the terminal table per context. */
  sequences: number;
  /** Per turn t < T (index t − 1): V^(t·L), the cells of its turn-reward table per context. */
  prefixes: number[];
}

/** Sizes of a custom table when they are valid integers: contexts, sequences per context, turn-table sizes. */
export function customTableShape(draft: Draft): TableShape | null {
  if (!isCustomEnv(draft)) return null;
  const env = draft.env as Record<string, unknown>;
  const okInt = (v: unknown, s: { min: number; max: number }) => typeof v === 'number' && Number.isInteger(v) && v >= s.min && v <= s.max;
  if (!okInt(env.turns, LIMITS.turns) || !okInt(env.vocab, LIMITS.vocab) || !okInt(env.tokensPerTurn, LIMITS.tokensPerTurn)) return null;
  const rows = Array.isArray(env.rewards) ? env.rewards.length : 0;
  const contexts = env.contexts === undefined ? Math.max(1, rows) : env.contexts;
  if (!okInt(contexts, LIMITS.contexts)) return null;
  const V = env.vocab as number, T = env.turns as number, L = env.tokensPerTurn as number;
  return { contexts: contexts as number, sequences: Math.pow(V, T * L), prefixes: Array.from({ length: T - 1 }, (_, t) => Math.pow(V, (t + 1) * L)) };
}

/** Cells of the per-turn tables for a shape: contexts · Σ_t V^(t·L). */
export const turnTableCells = (shape: TableShape): number => shape.contexts * shape.prefixes.reduce((a, b) => a + b, 0);

/** Per-turn reward tables of zeros for a shape (per context, T − 1 tables). */
const zeroTurnTables = (shape: TableShape): number[][][] =>
  Array.from({ length: shape.contexts }, () => shape.prefixes.map((n) => new Array<number>(n).fill(0)));

/** True when the draft's env.turnRewards has exactly the shape's tables (cells not checked). */
export function turnTablesFit(turnRewards: unknown, shape: TableShape): boolean {
  return (
    Array.isArray(turnRewards) &&
    turnRewards.length === shape.contexts &&
    turnRewards.every(
      (tables) => Array.isArray(tables) && tables.length === shape.prefixes.length && tables.every((t, i) => Array.isArray(t) && t.length === shape.prefixes[i]),
    )
  );
}

/**
 * Per-turn rewards on (tables of zeros at the current sizes: the same experiment until a cell is
 * edited) or off (no `turnRewards` key at all). Needs valid sizes and at least two turns.
 */
export function setTurnRewards(draft: Draft, on: boolean): DraftEdit {
  if (!isCustomEnv(draft)) return { ok: false, error: 'per-turn rewards are edited on a custom table: choose "Custom table" first' };
  const env = { ...(draft.env as Record<string, unknown>) };
  if (!on) {
    delete env.turnRewards;
    return { ok: true, draft: { ...draft, env } };
  }
  const shape = customTableShape(draft);
  if (!shape) return { ok: false, error: 'set valid turns, tokens per turn, vocabulary and contexts first' };
  if (shape.prefixes.length === 0) return { ok: false, error: 'one turn: its only reward is the terminal table (per-turn rewards need at least 2 turns)' };
  const cells = turnTableCells(shape);
  if (cells > MAX_EDITOR_CELLS)
    return { ok: false, error: `the per-turn tables would have ${cells.toLocaleString('en-US')} cells; the editor builds tables of at most ${MAX_EDITOR_CELLS}` };
  if (turnTablesFit(env.turnRewards, shape)) return { ok: true, draft };
  env.turnRewards = zeroTurnTables(shape);
  return { ok: true, draft: { ...draft, env } };
}

/**
 * A custom table rebuilt with zeros to fit its sizes (contexts × V^(T·L)); refused past 512 cells.
 * Per-turn tables, when present, are rebuilt with zeros too (and removed at one turn).
 */
export function resizeRewards(draft: Draft): DraftEdit {
  const shape = customTableShape(draft);
  if (!shape) return { ok: false, error: 'set valid turns, tokens per turn, vocabulary and contexts first' };
  const cells = shape.contexts * shape.sequences;
  if (cells > MAX_EDITOR_CELLS)
    return { ok: false, error: `contexts·V^(T·L) = ${cells.toLocaleString('en-US')} cells; the editor builds tables of at most ${MAX_EDITOR_CELLS}` };
  const env = { ...(draft.env as Record<string, unknown>) };
  env.rewards = Array.from({ length: shape.contexts }, () => new Array<number>(shape.sequences).fill(0));
  if (env.turnRewards !== undefined) {
    if (shape.prefixes.length === 0) delete env.turnRewards;
    else env.turnRewards = zeroTurnTables(shape);
  }
  if (Array.isArray(env.noise) && env.noise.length !== shape.contexts) env.noise = env.noise[0] ?? { kind: 'none' };
  if (typeof env.contextsPerBatch === 'number' && env.contextsPerBatch > shape.contexts) delete env.contextsPerBatch;
  return { ok: true, draft: { ...draft, env } };
}

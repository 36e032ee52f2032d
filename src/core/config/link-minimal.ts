import { ALGORITHM_PRESETS, fieldsRead, presetRecord, type AlgorithmRecord } from '../algo/records';
import { DEFAULT_CONFIG } from './defaults';
import { isRecord } from './fields';

// A config with what equals the defaults left out, so permalinks stay short: top-level fields
// equal to DEFAULT_CONFIG, and algorithm fields equal to their preset's value. Decoding fills
// the top-level defaults back in, which gives the same experiment.


export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
  }
  return false;
}

/**
 * An algorithm entry without the fields its preset already sets to the same value. Fields the
 * rule ignores stay: resolving them gives a warning, and the link must give the same one.
 */
function minimalAlgorithm(entry: unknown): unknown {
  if (!isRecord(entry) || typeof entry.id !== 'string') return entry;
  const base = typeof entry.preset === 'string' ? entry.preset : entry.id;
  if (!Object.hasOwn(ALGORITHM_PRESETS, base)) return entry;
  const rec = { ...presetRecord(base, entry.id), ...entry } as unknown as AlgorithmRecord & Record<string, unknown>;
  const used: Set<string> = fieldsRead(rec);
  const preset = presetRecord(base, entry.id) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry)) {
    if (v === undefined) continue;
    if ((used.has(k) || k === 'rule') && sameJson(preset[k], v)) continue;
    out[k] = v;
  }
  return out;
}

export function minimalConfig(config: Record<string, unknown>): Record<string, unknown> {
  const defaults = DEFAULT_CONFIG as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) {
    if (v === undefined) continue;
    const value = k === 'algorithms' && Array.isArray(v) ? v.map(minimalAlgorithm) : v;
    if (Object.hasOwn(defaults, k) && sameJson(defaults[k], value)) continue;
    if (k === 'changes' && Array.isArray(value) && value.length === 0) continue;
    out[k] = value;
  }
  return out;
}

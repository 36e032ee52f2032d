import { copyNumber, presetOf, type AlgorithmRecord } from '../core/algo/records';

// Colour-blind-safe series colours: Okabe–Ito (black left out so lines stay visible on dark
// backgrounds) plus Paul Tol's wine and a mid grey. Each named algorithm has its colour for good
// (a line keeps its colour when others are added or removed); the pale yellow falls on
// a baseline and the SeeUPO variants get the strongest colours.
export const PRESET_COLORS: Readonly<Record<string, string>> = {
  reinforce: '#8C8C8C', // grey
  rloo: '#F0E442', // yellow
  grpo: '#E69F00', // orange
  'ppo-grae': '#CC79A7', // reddish purple
  gspo: '#56B4E9', // sky blue
  'ppo-gae': '#882255', // wine (Tol)
  seeupo: '#0072B2', // blue
  'seeupo-forward': '#009E73', // bluish green
  'seeupo-random': '#D55E00', // vermillion
};

export const SERIES_COLORS = Object.values(PRESET_COLORS);

/** `hex` mixed with white (t > 0) or black (t < 0) by |t|. */
export function shade(hex: string, t: number): string {
  const n = parseInt(hex.slice(1), 16);
  const target = t > 0 ? 255 : 0;
  const mix = (c: number) => Math.round(c + (target - c) * Math.abs(t));
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(mix);
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}

/** Shades for copies #2, #3, … of a named algorithm: darker, lighter, darker still, … */
const COPY_SHADES = [-0.35, 0.35, -0.55, 0.55, -0.2, 0.2];

/** A small stable hash of an id (FNV-1a), for the colour of an algorithm no preset names. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The colour of an algorithm's line, from what it is, never from its place in the list: its
 * preset's colour (a copy "grpo-2" a shade of it), or one picked by its id.
 */
export function algorithmColor(rec: Pick<AlgorithmRecord, 'id' | 'preset'>): string {
  const p = presetOf(rec);
  if (p && PRESET_COLORS[p]) {
    const copy = copyNumber(rec);
    if (rec.id === p) return PRESET_COLORS[p];
    const t = copy !== null ? COPY_SHADES[(copy - 2) % COPY_SHADES.length]! : COPY_SHADES[hash(rec.id) % COPY_SHADES.length]!;
    return shade(PRESET_COLORS[p], t);
  }
  return SERIES_COLORS[hash(rec.id) % SERIES_COLORS.length]!;
}

/** Colour by list position: only for what has no algorithm record (kept for old callers). */
export function seriesColor(i: number): string {
  return SERIES_COLORS[i % SERIES_COLORS.length]!;
}

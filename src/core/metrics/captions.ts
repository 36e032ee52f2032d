// Plain-language captions generated from the numbers only (algorithms.md §7–§8): where each
// algorithm's seeds ended, and the paper's claims stated as observed / not observed on this
// experiment. Pure TS: the page and tests call it on the streamed (partial) series.

import { algorithmLabel, type AlgorithmRecord } from '../algo/records';
import { needsMonteCarlo, type Experiment } from '../config/resolve';
import { rewardRange } from '../run/result';
import { storedUpTo, type RunSeries } from '../run/series';
import { lastFinite, summarize, violationTolerance, type AlgorithmSummary } from './summary';

/** A seed is at the optimum when its J is within this of J* (the share-at-J* rule of §7). */
export const AT_OPTIMUM = 0.01;
/** Final J values of seeds that did not reach J* are grouped when they lie within this of each other. */
export const CLUSTER_WIDTH = 0.02;
/** Final J means closer than this are not called different, even with non-overlapping intervals. */
export const MIN_J_DIFFERENCE = 0.01;

/** One algorithm's across-seed summary at the iteration every run has completed. */
export interface LiveSummary {
  algoIndex: number;
  id: string;
  label: string;
  summary: AlgorithmSummary;
  /** Runs of this algorithm present in the data. */
  seeds: number;
  /** Seeds within 0.01 of J* (summary.atOptimum · seeds). */
  atOptimumSeeds: number;
  /** Per seed (seed order): the last finite J up to the iteration, NaN when none. */
  finals: number[];
  /** Per seed: diverged at or before the iteration. */
  diverged: boolean[];
  divergedSeeds: number;
  /** Compute time of the algorithm's runs up to the iteration, summed over seeds (s). */
  wallSeconds: number;
  /** The iteration summarized (J[0..iteration] of every run). */
  iteration: number;
  /** J is a Monte-Carlo estimate: no violations are counted (summary.violations is 0). */
  jIsEstimate: boolean;
}

/**
 * Summaries of the streamed series at `iteration`: each run's J truncated to 0..iteration, fed to
 * summarize() (a Monte-Carlo J counts no violations). Returns [] when there are no runs.
 * `jIsEstimate` defaults to needsMonteCarlo(exp.env): the only case where the explorer estimates J.
 */
export function summarizeLive(
  exp: Experiment,
  Jstar: number,
  runs: readonly RunSeries[],
  iteration: number,
  opts: { jIsEstimate?: boolean } = {},
): LiveSummary[] {
  if (runs.length === 0) return [];
  const jIsEstimate = opts.jIsEstimate ?? needsMonteCarlo(exp.env);
  const tol = jIsEstimate ? Infinity : violationTolerance(rewardRange(exp));
  const it = Number.isFinite(iteration) ? Math.max(0, Math.floor(iteration)) : 0;
  return exp.algorithms.map((a, ai) => {
    const mine = runs.filter((s) => s.algoIndex === ai).sort((x, y) => x.seedIndex - y.seedIndex);
    const Js = mine.map((s) => s.J.subarray(0, Math.min(it, s.J.length - 1) + 1));
    const summary = summarize(Js, Jstar, tol);
    const diverged = mine.map((s) => s.diverged !== null && s.diverged <= it);
    let wallMs = 0;
    for (const s of mine) {
      // a long run stores wallMs every `every` updates (series.ts): each stored one stands for `every`
      const n = Math.min(storedUpTo(it - 1, s.iterations - 1, s.every), s.wallMs.length);
      for (let j = 0; j < n; j++) if (Number.isFinite(s.wallMs[j])) wallMs += s.wallMs[j] * s.every;
    }
    return {
      algoIndex: ai,
      id: a.id,
      label: algorithmLabel(a),
      summary,
      seeds: mine.length,
      atOptimumSeeds: Math.round(summary.atOptimum * mine.length),
      finals: Js.map((J) => lastFinite(J)),
      diverged,
      divergedSeeds: diverged.filter(Boolean).length,
      wallSeconds: wallMs / 1000,
      iteration: it,
      jIsEstimate,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Grouping the seeds of one algorithm by where they ended

export interface SeedCluster {
  /** Mean of the cluster's final J values. */
  value: number;
  lo: number;
  hi: number;
  count: number;
}

export interface SeedGroups {
  seeds: number;
  /** Seeds (not diverged) whose final J is within 0.01 of J*. */
  atOptimum: number;
  /** The other finite final values, clustered within 0.02, largest cluster first. */
  clusters: SeedCluster[];
  diverged: number;
  /** Seeds with no finite J at all (not diverged): nothing reported yet. */
  missing: number;
}

/** Greedy clustering: repeatedly take the largest window of sorted values spanning at most `width`. */
export function clusterValues(values: readonly number[], width = CLUSTER_WIDTH): SeedCluster[] {
  let rest = values.filter(Number.isFinite).sort((a, b) => a - b);
  const out: SeedCluster[] = [];
  while (rest.length) {
    let best = 0, bestLen = 0;
    for (let i = 0, j = 0; i < rest.length; i++) {
      if (j < i) j = i;
      while (j + 1 < rest.length && rest[j + 1] - rest[i] <= width + 1e-12) j++;
      if (j - i + 1 > bestLen) { best = i; bestLen = j - i + 1; }
    }
    const members = rest.slice(best, best + bestLen);
    out.push({ value: members.reduce((s, v) => s + v, 0) / members.length, lo: members[0], hi: members[members.length - 1], count: members.length });
    rest = [...rest.slice(0, best), ...rest.slice(best + bestLen)];
  }
  return out.sort((a, b) => b.count - a.count || b.value - a.value);
}

export function groupSeeds(s: LiveSummary, Jstar: number): SeedGroups {
  let atOptimum = 0, missing = 0;
  const others: number[] = [];
  s.finals.forEach((f, i) => {
    if (s.diverged[i]) return;
    if (!Number.isFinite(f)) missing++;
    else if (f >= Jstar - AT_OPTIMUM) atOptimum++;
    else others.push(f);
  });
  return { seeds: s.seeds, atOptimum, clusters: clusterValues(others), diverged: s.divergedSeeds, missing };
}

// ---------------------------------------------------------------------------------------------
// Formatting

/** Decimals for J values: 2 for rewards spanning about 1, more for narrower reward ranges. */
export function jDecimals(span: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 2;
  return Math.max(2, 1 - Math.floor(Math.log10(span)));
}

const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);
const ofSeeds = (k: number, n: number) => `${k}/${n} ${plural(n, 'seed')}`;

function makeFmt(exp: Experiment) {
  const d = jDecimals(rewardRange(exp));
  const num = (v: number) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
  const interval = (s: LiveSummary) => {
    const f = s.summary.finalJ;
    if (!Number.isFinite(f.mean)) return 'n/a';
    if (f.n <= 1) return `${num(f.mean)} (1 seed)`;
    return `${num(f.mean)} ± ${num((f.hi - f.lo) / 2)}`;
  };
  return { num, interval };
}

/** A reward value of the (single-context) table within 0.01 of v: a natural place to get stuck. */
function isRewardLevel(exp: Experiment, v: number): boolean {
  if (exp.env.contexts !== 1) return false;
  const r = exp.env.rewards[0];
  for (let i = 0; i < r.length; i++) if (Math.abs(r[i] - v) <= AT_OPTIMUM) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Captions

export interface CaptionInput {
  exp: Experiment;
  Jstar: number;
  /** Display labels by algorithm index (the plan's lines); defaults to the records' labels. */
  algorithms?: readonly { id: string; label: string }[];
}

export interface CaptionParts {
  /** "So far (iteration k of N):" while the runs have not reached the last iteration; else null. */
  prefix: string | null;
  sentences: string[];
}

const isReverseSequential = (a: AlgorithmRecord) => a.rule === 'sequential' && a.order === 'reverse';

/** Fields of the sequential rule that two algorithms must share for an order comparison to isolate the order. */
const SEQUENTIAL_FIELDS = ['advantage', 'normalization', 'turnRatio', 'mCorrection', 'mClip', 'clip', 'epochs', 'minibatches'] as const;

export function differingFields(a: AlgorithmRecord, b: AlgorithmRecord, fields: readonly (keyof AlgorithmRecord)[] = SEQUENTIAL_FIELDS): string[] {
  return fields.filter((k) => a[k] !== b[k]);
}

/** The generated sentences, with the in-progress prefix kept apart (the Caption shows it as a lead-in). */
export function captionParts(input: CaptionInput, summaries: readonly LiveSummary[]): CaptionParts {
  const { exp, Jstar } = input;
  const withData = summaries.filter((s) => s.seeds > 0);
  if (withData.length === 0) return { prefix: null, sentences: [] };
  const iteration = Math.min(...withData.map((s) => s.iteration));
  if (iteration < 1) return { prefix: null, sentences: [] };
  const inProgress = iteration < exp.iterations;
  const prefix = inProgress ? `So far (iteration ${iteration} of ${exp.iterations}):` : null;
  const { num, interval } = makeFmt(exp);
  const label = (s: LiveSummary) => input.algorithms?.[s.algoIndex]?.label ?? s.label;
  const record = (s: LiveSummary) => exp.algorithms[s.algoIndex];
  const sentences: string[] = [];

  // 1. Where each algorithm's seeds ended.
  for (const s of withData) sentences.push(outcomeSentence(s, groupSeeds(s, Jstar)));

  function outcomeSentence(s: LiveSummary, g: SeedGroups): string {
    const n = g.seeds;
    const parts: string[] = [];
    if (g.atOptimum > 0) {
      const med = s.summary.medianItersTo95;
      parts.push(
        `reached J* (within ${AT_OPTIMUM}) in ${ofSeeds(g.atOptimum, n)}` +
          (med !== null ? `, 95% of the way after a median ${med} ${plural(med, 'iteration')}` : ''),
      );
    }
    const named = g.clusters.filter((c) => c.count >= 2).slice(0, 3);
    if (named.length === 0 && g.clusters.length === 1) named.push(g.clusters[0]);
    for (const c of named) {
      const level = isRewardLevel(exp, c.value) ? ' (a reward level of the table)' : '';
      parts.push(`${inProgress ? 'is at' : 'stalled at'} J ≈ ${num(c.value)}${level} in ${ofSeeds(c.count, n)}`);
    }
    const rest = g.clusters.filter((c) => !named.includes(c));
    if (rest.length) {
      const count = rest.reduce((k, c) => k + c.count, 0);
      const lo = Math.min(...rest.map((c) => c.lo)), hi = Math.max(...rest.map((c) => c.hi));
      const where = num(lo) === num(hi) ? `at J = ${num(lo)}` : `between J = ${num(lo)} and ${num(hi)}`;
      parts.push(`${inProgress ? 'is' : 'ended'} ${where} in ${ofSeeds(count, n)}`);
    }
    if (g.diverged) parts.push(`diverged in ${ofSeeds(g.diverged, n)}`);
    if (g.missing) parts.push(`has no J yet in ${ofSeeds(g.missing, n)}`);
    const tail = g.atOptimum < n ? `; J* = ${num(Jstar)}` : '';
    return `${label(s)} ${parts.join('; ')}${tail}.`;
  }

  // 2. Monotonic improvement: SeeUPO's claim, for sequential reverse-order algorithms.
  for (const s of withData.filter((x) => isReverseSequential(record(x)))) {
    const a = record(s);
    if (s.jIsEstimate) {
      sentences.push(`Monotonic improvement: not checked for ${label(s)} (J is a Monte-Carlo estimate).`);
      continue;
    }
    const { violations, seedsWithViolations } = s.summary;
    if (violations === 0 && s.divergedSeeds === 0) {
      sentences.push(
        `Monotonic improvement: observed for ${label(s)} (no drop of J in ${s.seeds} ${plural(s.seeds, 'seed')} × ${iteration} ${plural(iteration, 'iteration')}).`,
      );
      continue;
    }
    const what: string[] = [];
    if (violations) what.push(`J dropped ${violations} ${plural(violations, 'time')} in ${ofSeeds(seedsWithViolations, s.seeds)}`);
    if (s.divergedSeeds) what.push(`diverged in ${ofSeeds(s.divergedSeeds, s.seeds)}`);
    const why: string[] = [];
    if (exp.mode === 'sampled') why.push("in sampled mode drops can come from sampling noise (the paper's guarantee is for exact updates)");
    if (exp.policy.kind === 'mlp') why.push("the policy is a shared network, outside the theory's per-turn independence");
    if (a.normalization === 'group') why.push('group normalization, which the paper shows breaks the guarantees, is on');
    if (!a.mCorrection) why.push('the M correction is off');
    sentences.push(`Monotonic improvement: not observed for ${label(s)}: ${[...what, ...why].join('; ')}.`);
  }

  // 3. Global optimum: SeeUPO's convergence claim (and REINFORCE with GRAE when undiscounted, claim 1).
  for (const s of withData) {
    const a = record(s);
    const claim = isReverseSequential(a) || (a.rule === 'reinforce' && a.advantage === 'grae' && a.normalization === 'none' && exp.env.gamma === 1);
    if (!claim) continue;
    const k = s.atOptimumSeeds, n = s.seeds;
    const verdict = k === n ? 'observed' : k === 0 ? (inProgress ? 'not yet observed' : 'not observed') : 'partly observed';
    const detail = k === n ? '' : `; final J ${interval(s)}`;
    sentences.push(`Global optimum: ${verdict} for ${label(s)} (${ofSeeds(k, n)} within ${AT_OPTIMUM} of J* = ${num(Jstar)}${detail}).`);
  }

  // 4. Reverse vs another order: each forward/random sequential algorithm against the closest reverse one.
  const reverse = withData.filter((x) => isReverseSequential(record(x)));
  for (const o of withData.filter((x) => record(x).rule === 'sequential' && record(x).order !== 'reverse')) {
    if (reverse.length === 0) break;
    let r = reverse[0], diffs = differingFields(record(r), record(o));
    for (const c of reverse.slice(1)) {
      const d = differingFields(record(c), record(o));
      if (d.length < diffs.length) { r = c; diffs = d; }
    }
    sentences.push(orderSentence(r, o, diffs));
  }

  function orderSentence(r: LiveSummary, o: LiveSummary, diffs: string[]): string {
    const fr = r.summary.finalJ, fo = o.summary.finalJ;
    const higher = fr.lo > fo.hi && fr.mean - fo.mean > MIN_J_DIFFERENCE;
    const lower = fr.hi < fo.lo && fo.mean - fr.mean > MIN_J_DIFFERENCE;
    const mr = r.summary.medianItersTo95, mo = o.summary.medianItersTo95;
    const quicker = (x: number | null, y: number | null) => x !== null && (y === null || (y - x >= 2 && x <= 0.8 * y));
    const faster = quicker(mr, mo), slower = quicker(mo, mr);
    const better = higher || faster, worse = lower || slower;
    const R = label(r), O = label(o);
    const finals = `final J ${interval(r)} vs ${interval(o)}`;
    const also = diffs.length ? `; the two also differ in ${diffs.join(', ')}, not only in order` : '';
    const div = [r, o].filter((x) => x.divergedSeeds).map((x) => `${label(x)} diverged in ${ofSeeds(x.divergedSeeds, x.seeds)}`);
    const divText = div.length ? `; ${div.join('; ')}` : '';
    if (!better && !worse) {
      const overlap = !(fr.lo > fo.hi) && !(fr.hi < fo.lo);
      const m = (v: number | null) => (v === null ? 'not reached' : String(v));
      return (
        `Reverse order: no difference observed between ${R} and ${O} ` +
        `(${finals}, ${overlap ? 'intervals overlap' : `within ${MIN_J_DIFFERENCE}`}; median iterations to 95% of the way to J*: ${m(mr)} vs ${m(mo)}${divText})${also}.`
      );
    }
    const speed = medianVs(R, mr, O, mo);
    const verdict = better && !worse ? 'Reverse order helped here' : worse && !better ? 'Reverse order did not help here' : 'Reverse order: mixed result';
    return `${verdict}: ${speed}; ${finals}${divText}${also}.`;
  }

  return { prefix, sentences };
}

function medianVs(R: string, mr: number | null, O: string, mo: number | null): string {
  const its = (m: number) => `a median ${m} ${plural(m, 'iteration')}`;
  if (mr !== null && mo !== null) return `${R} reached 95% of the way to J* after ${its(mr)} vs ${mo} for ${O}`;
  if (mr !== null) return `${R} reached 95% of the way to J* after ${its(mr)}, while most ${O} seeds never did`;
  if (mo !== null) return `most ${R} seeds never reached 95% of the way to J*, while ${O} did after ${its(mo)}`;
  return `most seeds of both never reached 95% of the way to J*`;
}

/** The caption sentences; while in progress the first one starts with "So far (iteration k of N):". */
export function captions(input: CaptionInput, summaries: readonly LiveSummary[]): string[] {
  const { prefix, sentences } = captionParts(input, summaries);
  if (!prefix || sentences.length === 0) return sentences;
  return [`${prefix} ${sentences[0]}`, ...sentences.slice(1)];
}

// Plain-language captions generated from the numbers only (docs/math.md "What is measured"; docs/claims.md): where each
// algorithm's seeds ended (at J*, stuck, or still improving, in §8's terms) and the verdicts of
// the paper's five claims as the claims engine (../claims) decides them. Pure TS: the page and
// tests call it on the streamed (partial) series.

import { algorithmLabel } from '../algo/records';
import { allTerms, AT_JSTAR, claimsRunOf, computeClaims, experimentFacts, jDecimals, type AlgorithmTerms, type Claim, type ClaimsInput, type SeedTerms } from '../claims';
import { needsMonteCarlo, type Experiment } from '../config/resolve';
import { returnRange } from '../env/returns';
import { storedUpTo, type RunSeries } from '../run/series';
import { divergedWhere, lastFinite, atOptimumTolerance, summarize, violationTolerance, type AlgorithmSummary } from './summary';
import { seedsIdentical } from './identical';

/** A seed is at the optimum when its J is within this of J* (the share-at-J* rule of §7). */
export const AT_OPTIMUM = AT_JSTAR;
/** Final J values of seeds that did not reach J* are grouped when they lie within this of each other. */
export const CLUSTER_WIDTH = 0.02;

/** One algorithm's across-seed summary at the iteration every run has completed. */
export interface LiveSummary {
  algoIndex: number;
  id: string;
  label: string;
  summary: AlgorithmSummary;
  /** Runs of this algorithm present in the data. */
  seeds: number;
  /** Seeds within 1% of the rewards' range of J* (summary.atOptimum · seeds). */
  atOptimumSeeds: number;
  /** Per seed (seed order): the last finite J up to the iteration, NaN when none. */
  finals: number[];
  /** Per seed: diverged at or before the iteration. */
  diverged: boolean[];
  /** Per seed: the iteration it diverged at (≤ the iteration), else null. */
  divergedAt: (number | null)[];
  /** Per seed: its seed index. */
  seedIndices: number[];
  /** Per seed: J[0..iteration] (a view on the series, not a copy). */
  J: Float64Array[];
  /** Per seed: the series itself (the claims read its optimal-token probabilities, KL and J_γ up to the iteration). */
  series: RunSeries[];
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
  const range = returnRange(exp.env);
  const tol = { violation: jIsEstimate ? Infinity : violationTolerance(range), atOptimum: atOptimumTolerance(range) };
  const it = Number.isFinite(iteration) ? Math.max(0, Math.floor(iteration)) : 0;
  return exp.algorithms.map((a, ai) => {
    const mine = runs.filter((s) => s.algoIndex === ai).sort((x, y) => x.seedIndex - y.seedIndex);
    const Js = mine.map((s) => s.J.subarray(0, Math.min(it, s.J.length - 1) + 1));
    const divergedAt = mine.map((s) => (s.diverged !== null && s.diverged <= it ? s.diverged : null));
    const summary = summarize(Js, Jstar, tol, divergedAt);
    const diverged = divergedAt.map((d) => d !== null);
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
      divergedAt,
      seedIndices: mine.map((s) => s.seedIndex),
      J: Js,
      series: mine,
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
  /** Seeds (not diverged) whose final J is within 1% of the rewards' range of J* (atOptimumTolerance). */
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

/** `tol`: how far below J* a seed still counts as at J* (AT_OPTIMUM · R range in the claims; AT_OPTIMUM for R range 1). */
export function groupSeeds(s: LiveSummary, Jstar: number, tol = AT_OPTIMUM): SeedGroups {
  let atOptimum = 0, missing = 0;
  const others: number[] = [];
  s.finals.forEach((f, i) => {
    if (s.diverged[i]) return;
    if (!Number.isFinite(f)) missing++;
    else if (f >= Jstar - tol) atOptimum++;
    else others.push(f);
  });
  return { seeds: s.seeds, atOptimum, clusters: clusterValues(others), diverged: s.divergedSeeds, missing };
}

// ---------------------------------------------------------------------------------------------
// Formatting

/** Decimals for J values (the claims' reasons use the same). */
export { jDecimals };

const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);
const ofSeeds = (k: number, n: number) => `${k}/${n} ${plural(n, 'seed')}`;

/** A reward value of the (single-context) table within 0.01 of v: a natural place to get stuck. */
function isRewardLevel(exp: Experiment, v: number): boolean {
  if (exp.env.contexts !== 1) return false;
  const r = exp.env.returns[0];
  for (let i = 0; i < r.length; i++) if (Math.abs(r[i] - v) <= AT_OPTIMUM) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Claims of the summarized runs

/**
 * The claims engine's input for the summaries (each run's J up to the summarized iteration). The
 * same as claimsInputOf(exp, Jstar, series, { upTo: iteration }) of ../claims.
 */
export function claimsInputOfLive(exp: Experiment, Jstar: number, summaries: readonly LiveSummary[]): ClaimsInput {
  return {
    runs: exp.algorithms.map((_, ai) => {
      const s = summaries.find((x) => x.algoIndex === ai);
      return s ? s.series.map((run) => claimsRunOf(run, s.iteration)) : [];
    }),
    ...experimentFacts(exp, Jstar, summaries.some((s) => s.jIsEstimate)),
  };
}

/** The five verdicts (docs/claims.md) on the summarized runs. */
export function liveClaims(exp: Experiment, Jstar: number, summaries: readonly LiveSummary[]): Claim[] {
  return judgeLive(exp, Jstar, summaries).claims;
}

/** The claims engine's input, its terms on J and its verdicts for one array of summaries. */
export interface LiveJudgement {
  input: ClaimsInput;
  terms: AlgorithmTerms[];
  claims: Claim[];
}

const judged = new WeakMap<readonly LiveSummary[], LiveJudgement & { exp: Experiment; Jstar: number }>();

/**
 * The verdicts on the summarized runs with the input and terms they were decided on, computed once
 * per array of summaries: the page's verdict panel and caption read the same array (each in a task
 * of its own), and the terms of 1,024 runs cost tens of ms. A summary holds each run's values up
 * to its own iteration, which never change once written, so a later call on the same array gets
 * what a fresh computation would.
 */
export function judgeLive(exp: Experiment, Jstar: number, summaries: readonly LiveSummary[]): LiveJudgement {
  const hit = judged.get(summaries);
  if (hit && hit.exp === exp && hit.Jstar === Jstar) return hit;
  const input = claimsInputOfLive(exp, Jstar, summaries);
  const terms = allTerms(input);
  const made = { exp, Jstar, input, terms, claims: computeClaims(input, terms) };
  judged.set(summaries, made);
  return made;
}

/** "Claim 4 (SeeUPO in reverse order …): observed — <reason>" */
export function claimSentence(c: Claim): string {
  const verdict = c.verdict === 'not testable' ? 'not testable here' : c.verdict;
  const reason = c.reason.replace(/^(Not testable here|Undecided): /, '');
  return `Claim ${c.claim} (${c.title}): ${verdict} — ${reason}`;
}

/**
 * The claim sentences to show: every claim that is testable here; when none is, every one (each
 * saying what the experiment lacks), so the reader learns what would make them testable.
 */
export function claimSentences(claims: readonly Claim[]): string[] {
  const testable = claims.filter((c) => c.verdict !== 'not testable');
  return (testable.length ? testable : claims).map(claimSentence);
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
  /** The verdicts the claim sentences state (absent when there is nothing to say yet). */
  claims?: Claim[];
}

/** Where a seed that is not at J* is, in §8's terms. */
type SeedState = 'stuck' | 'improving' | 'moving';

/**
 * Stalled (§8) → stuck; else still improving, or still moving when J fell over the window (with
 * fewer than w + 1 values, the direction since J_0).
 */
function stateOf(t: SeedTerms, J: ArrayLike<number> | undefined): SeedState {
  if (t.stalled) return 'stuck';
  const change = Number.isFinite(t.change) ? t.change : J && J.length ? t.final - J[0] : NaN;
  return change < 0 ? 'moving' : 'improving';
}

const STATE_WORDS: Record<SeedState, string> = { stuck: 'stuck', improving: 'still improving', moving: 'still moving' };

/** The generated sentences, with the in-progress prefix kept apart (the Caption shows it as a lead-in). */
export function captionParts(input: CaptionInput, summaries: readonly LiveSummary[]): CaptionParts {
  const { exp, Jstar } = input;
  const withData = summaries.filter((s) => s.seeds > 0);
  if (withData.length === 0) return { prefix: null, sentences: [] };
  const iteration = Math.min(...withData.map((s) => s.iteration));
  if (iteration < 1) return { prefix: null, sentences: [] };
  const inProgress = iteration < exp.iterations;
  const prefix = inProgress ? `So far (iteration ${iteration} of ${exp.iterations}):` : null;
  const d = jDecimals(returnRange(exp.env));
  const num = (v: number) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
  const label = (s: LiveSummary) => input.algorithms?.[s.algoIndex]?.label ?? s.label;
  const { terms, claims } = judgeLive(exp, Jstar, summaries);
  const sentences: string[] = [];

  // 1. Where each algorithm's seeds ended: at J*, stuck (stalled per §8), or still improving.
  for (const s of withData) sentences.push(outcomeSentence(s, groupSeeds(s, Jstar, AT_OPTIMUM * returnRange(exp.env)), terms[s.algoIndex]?.seeds ?? []));

  function outcomeSentence(s: LiveSummary, g: SeedGroups, seeds: readonly SeedTerms[]): string {
    const n = g.seeds;
    const parts: string[] = [];
    if (g.atOptimum > 0) {
      const med = s.summary.medianItersTo95;
      parts.push(
        `reached J* (within ${num(AT_OPTIMUM * returnRange(exp.env))}) in ${ofSeeds(g.atOptimum, n)}` +
          (med !== null ? `, 95% of the way after a median ${med} ${plural(med, 'iteration')}` : ''),
      );
    }
    // the seeds groupSeeds() puts in clusters (finite, not diverged, not at J*), by §8 state
    for (const state of ['stuck', 'improving', 'moving'] as const) {
      const values = seeds.filter((t, i) => !t.diverged && Number.isFinite(t.final) && !t.atJstar && stateOf(t, s.J[i]) === state).map((t) => t.final);
      if (values.length === 0) continue;
      const word = STATE_WORDS[state];
      const clusters = clusterValues(values);
      const named = clusters.filter((c) => c.count >= 2).slice(0, 3);
      if (named.length === 0 && clusters.length === 1) named.push(clusters[0]);
      for (const c of named) {
        const level = isRewardLevel(exp, c.value) ? ' (a reward level of the table)' : '';
        parts.push(`${word} at J ≈ ${num(c.value)}${level} in ${ofSeeds(c.count, n)}`);
      }
      const rest = clusters.filter((c) => !named.includes(c));
      if (rest.length) {
        const count = rest.reduce((k, c) => k + c.count, 0);
        const lo = Math.min(...rest.map((c) => c.lo)), hi = Math.max(...rest.map((c) => c.hi));
        const where = num(lo) === num(hi) ? `at J = ${num(lo)}` : `between J = ${num(lo)} and ${num(hi)}`;
        parts.push(`${word} ${where} in ${ofSeeds(count, n)}`);
      }
    }
    if (g.diverged) parts.push(`diverged (${divergedWhere(s.divergedAt)}) in ${ofSeeds(g.diverged, n)}`);
    if (g.missing) parts.push(`has no J yet in ${ofSeeds(g.missing, n)}`);
    const tail = g.atOptimum < n ? `; J* = ${num(Jstar)}` : '';
    // every seed the same curve (exact mode from a uniform start): say so rather than count them as evidence
    const why = exp.mode === 'exact' && exp.policy.initScale === 0 ? ', as exact mode from a uniform start has no randomness' : '';
    const same = n > 1 && seedsIdentical(s.J, s.iteration) ? ` (its ${n} seeds are identical: one curve${why})` : '';
    return `${label(s)}${same} ${parts.join('; ')}${tail}.`;
  }

  // 2. The paper's claims: the verdicts of the claims engine, one sentence each.
  sentences.push(...claimSentences(claims));

  return { prefix, sentences, claims };
}

/** The caption sentences; while in progress the first one starts with "So far (iteration k of N):". */
export function captions(input: CaptionInput, summaries: readonly LiveSummary[]): string[] {
  const { prefix, sentences } = captionParts(input, summaries);
  if (!prefix || sentences.length === 0) return sentences;
  return [`${prefix} ${sentences[0]}`, ...sentences.slice(1)];
}

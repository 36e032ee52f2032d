// Claims 1–3 of algorithms.md §8 (version 1), and what every check shares. Claims 4–5 (twins)
// are in rules-twins.ts; computeClaims (index.ts) runs the five.

import { isCF, isGR, isPG, isREV } from './groups';
import type { AlgorithmTerms } from './terms';
import { dropsPhrase, joinAnd, movingClause, ofSeeds, reachedPhrase, stillMoving, stuckPhrase, type Fmt, CLAIM_TITLES } from './text';
import type { AlgorithmEvidence, Claim, ClaimsInput, Verdict } from './types';

/** What every check reads: the input, every algorithm's terms, the number format. */
export interface Ctx {
  input: ClaimsInput;
  terms: AlgorithmTerms[];
  fmt: Fmt;
}

/** Slack on the ≥ thresholds of differences (0.25 of share, 0.01 of J), so 0.3 − 0.29 counts as 0.01. */
export const DIFF_SLACK = 1e-12;

export const evidenceOf = (algos: readonly AlgorithmTerms[]): AlgorithmEvidence[] => algos.map((a) => a.evidence);

export function claim(n: Claim['claim'], verdict: Verdict, reason: string, algos: readonly AlgorithmTerms[], extra: Record<string, unknown> = {}): Claim {
  return { claim: n, title: CLAIM_TITLES[n], verdict, reason, evidence: { algorithms: evidenceOf(algos), ...extra } };
}

export const NOT_TESTABLE = 'Not testable here: ';

export const REV_TEXT = 'reverse-order SeeUPO (rule sequential, order reverse, mCorrection on, advantage grae, normalization none or batch)';

/** Why drop-based checks cannot run here (sampled mode or a Monte-Carlo J), or null. */
export function dropsUntestable(input: ClaimsInput): string | null {
  if (input.jIsEstimate) return 'J is a Monte-Carlo estimate, so a drop may be estimation noise (drop-based checks need exact J and exact updates).';
  if (input.mode === 'sampled') return 'in sampled mode a drop may be sampling noise (drop-based checks need exact updates).';
  return null;
}

/**
 * "Every seed of every algorithm is at J*" → observed; "some seed is stuck" → not observed; else
 * undecided (claims 1 and 4b). An algorithm without runs keeps it from being observed.
 */
export function reachVerdict(algos: readonly AlgorithmTerms[], fmt: Fmt): { verdict: Verdict; reason: string } {
  if (algos.every((a) => a.seeds.length > 0 && a.seeds.every((t) => t.atJstar))) return { verdict: 'observed', reason: `${reachedPhrase(algos)}.` };
  const stuck = algos.filter((a) => a.seeds.some((t) => t.stuck));
  if (stuck.length) return { verdict: 'not observed', reason: `${stuck.map((a) => stuckPhrase(a, fmt)).join('; ')}.` };
  return { verdict: 'undecided', reason: stillMoving(algos) ?? 'Undecided.' };
}

/** 1. GRAE-REINFORCE reaches J* when undiscounted. */
export function claim1({ input, terms, fmt }: Ctx): Claim {
  const gr = terms.filter((a) => isGR(a.record));
  const extra = { gamma: input.gamma };
  if (gr.length === 0) return claim(1, 'not testable', `${NOT_TESTABLE}the experiment has no GRAE-REINFORCE algorithm (rule reinforce with advantage grae or rloo).`, gr, extra);
  if (input.gamma !== 1) {
    const share = gr.map((a) => `${a.label} ${ofSeeds(a.evidence.atJstar, a.seeds.length)}`);
    return claim(
      1,
      'not testable',
      `${NOT_TESTABLE}γ = ${input.gamma}, and the claim is for undiscounted training (a discounted learner can settle elsewhere); at J*: ${joinAnd(share)}.`,
      gr,
      extra,
    );
  }
  const v = reachVerdict(gr, fmt);
  return claim(1, v.verdict, v.reason, gr, extra);
}

/** 2. PPO with GRAE can decrease J. */
export function claim2({ input, terms }: Ctx): Claim {
  const pg = terms.filter((a) => isPG(a.record) && a.record.ratio === 'token');
  const rev = terms.filter((a) => isREV(a.record));
  const extra = { rev: evidenceOf(rev) };
  const make = (v: Verdict, reason: string) => claim(2, v, reason, pg, extra);
  if (pg.length === 0) return make('not testable', `${NOT_TESTABLE}the experiment has no PPO-style algorithm with GRAE and token ratios (rule ppu with advantage grae or rloo, ratio token).`);
  const why = dropsUntestable(input);
  if (why) return make('not testable', `${NOT_TESTABLE}${why}`);
  const revText = rev.length ? `; beside ${pg.length === 1 ? 'it' : 'them'}, ${rev.map((a) => `${a.label} had ${dropsPhrase(a)}`).join(', ')}` : '';
  const dropped = pg.filter((a) => a.evidence.drops > 0);
  if (dropped.length) {
    const what = dropped.map((a) => `${a.label}'s J dropped ${a.evidence.drops} ${a.evidence.drops === 1 ? 'time' : 'times'} in ${ofSeeds(a.evidence.seedsWithDrops, a.seeds.length)} (largest drop ${largestDrop(a)})`);
    return make('observed', `${joinAnd(what)}${revText}.`);
  }
  if (pg.every((a) => a.seeds.length > 0 && a.seeds.every((t) => t.settled)))
    return make('not observed', `No drop of J in ${joinAnd(pg.map((a) => `${a.label} (${a.seeds.length} ${a.seeds.length === 1 ? 'seed' : 'seeds'})`))}, and every seed has settled${revText}.`);
  return make('undecided', `Undecided: no drop of J so far, but ${movingClause(pg) ?? 'not every seed has settled'}; run longer.`);
}

function largestDrop(a: AlgorithmTerms): string {
  const m = Math.max(...a.seeds.map((t) => t.maxDrop));
  return m.toPrecision(2);
}

const seedList = (xs: readonly number[]) => (xs.length ? xs.join(', ') : 'none');

/** 3. Critic-free simultaneous methods can miss J* where reverse-order SeeUPO reaches it. */
export function claim3({ terms, fmt }: Ctx): Claim {
  const cf = terms.filter((a) => isCF(a.record));
  const rev = terms.filter((a) => isREV(a.record));
  const both = [...cf, ...rev];
  const revAtJstar = rev.map((a) => ({ id: a.record.id, seedIndices: a.seeds.filter((t) => t.atJstar).map((t) => t.seedIndex) }));
  const cfStuck = cf.map((a) => ({ id: a.record.id, seedIndices: a.seeds.filter((t) => t.stuck).map((t) => t.seedIndex) }));
  // per (CF, REV) pair, the seed indices stuck for the first and at J* for the second
  const pairs = cf.flatMap((c, i) =>
    rev.map((r, j) => ({ c, r, stuck: cfStuck[i].seedIndices, common: cfStuck[i].seedIndices.filter((s) => revAtJstar[j].seedIndices.includes(s)) })),
  );
  const seedIndices = [...new Set(pairs.flatMap((p) => p.common))].sort((a, b) => a - b);
  const extra = { revAtJstar, cfStuck, seedIndices };
  const make = (v: Verdict, reason: string) => claim(3, v, reason, both, extra);
  if (cf.length === 0) return make('not testable', `${NOT_TESTABLE}the experiment has no critic-free simultaneous algorithm (rule reinforce or ppu with advantage grae or rloo).`);
  if (rev.length === 0) return make('not testable', `${NOT_TESTABLE}the experiment has no ${REV_TEXT}.`);
  const best = pairs.filter((p) => p.common.length > 0).sort((x, y) => y.common.length - x.common.length || y.stuck.length - x.stuck.length)[0];
  if (best) {
    const same = best.common.length === best.stuck.length ? 'the same seeds' : `${best.common.length} of those seeds (${seedList(best.common)})`;
    return make('observed', `${stuckPhrase(best.c, fmt)} while ${best.r.label} reached it in ${same}.`);
  }
  if (cf.every((a) => a.seeds.length > 0 && a.seeds.every((t) => t.atJstar))) return make('not observed', `${reachedPhrase(cf)}: no critic-free method missed it.`);
  const moving = stillMoving(both);
  if (moving) return make('undecided', moving);
  // every seed has settled, no CF seed index is stuck where a REV one is at J*, and not every CF seed is at J*
  const stuckText = cf
    .map((a, i) => ({ a, seeds: cfStuck[i].seedIndices }))
    .filter((x) => x.seeds.length > 0)
    .map((x) => `${x.a.label} is stuck in seed${x.seeds.length === 1 ? '' : 's'} ${seedList(x.seeds)}`);
  if (stuckText.length === 0) return make('undecided', `Undecided: ${joinAnd(cf.filter((a) => a.seeds.length === 0).map((a) => a.label))} has no runs yet.`);
  return make(
    'undecided',
    `Undecided: ${joinAnd(stuckText)}, but ${joinAnd(rev.map((a) => a.label))} did not reach J* there either; every seed has settled, so running longer will not decide it.`,
  );
}

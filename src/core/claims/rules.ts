// Claims 1–3 of docs/claims.md (rules version 2), and what every check shares. Claims 4–5 (twins)
// are in rules-twins.ts; computeClaims (index.ts) runs the five.

import { isCF, isGR, isPG, isREV } from './groups';
import { clearlyMore, fisherGreater } from './stats';
import type { AlgorithmTerms } from './terms';
import { dropsPhrase, joinAnd, largestDropText, movingClause, noRunsReason, ofSeeds, reachedPhrase, stillMoving, stuckPhrase, withoutData, type Fmt, CLAIM_TITLES, plural } from './text';
import type { AlgorithmEvidence, Claim, ClaimsInput, Verdict } from './types';

/** What every check reads. */
export interface Ctx {
  input: ClaimsInput;
  /** Every algorithm's terms on J against J* (claim 1: undiscounted training). */
  termsJ: AlgorithmTerms[];
  /** Every algorithm's terms on the learners' objective (J, or J_γ when they maximize the discounted return): claims 2–5. */
  terms: AlgorithmTerms[];
  /** The optimum of `terms`' objective. */
  objectiveStar: number;
  /** "J" or "J_γ": the objective's name in the reasons. */
  objectiveName: string;
  /** Iterations the runs have completed so far (the longest run). */
  iterationsDone: number;
  fmt: Fmt;
}

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

/** Several pairs or candidates: observed if any is, else undecided if any is, else not observed. */
export function combine(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('observed')) return 'observed';
  if (verdicts.includes('undecided')) return 'undecided';
  return 'not observed';
}

export const unique = (xs: readonly AlgorithmTerms[]): AlgorithmTerms[] => [...new Set(xs)].sort((x, y) => x.index - y.index);

export const allSettled = (algos: readonly AlgorithmTerms[]): boolean => algos.every((a) => a.seeds.length > 0 && a.seeds.every((t) => t.settled));

/**
 * "Every seed is at J*" → observed; "some seed is stuck" → not observed, saying in how many
 * iterations it was not reached (the claims are about the limit: a finite run can only fail to
 * show them); else undecided (claims 1 and 4b). Algorithms without data make it undecided.
 */
export function reachVerdict(algos: readonly AlgorithmTerms[], ctx: Ctx, Jstar: number, J = 'J'): { verdict: Verdict; reason: string } {
  const none = withoutData(algos);
  if (none.length) return { verdict: 'undecided', reason: noRunsReason(none) };
  if (algos.every((a) => a.seeds.length > 0 && a.seeds.every((t) => t.atJstar))) return { verdict: 'observed', reason: `${reachedPhrase(algos, J)}.` };
  const stuck = algos.filter((a) => a.seeds.some((t) => t.stuck));
  if (stuck.length)
    return {
      verdict: 'not observed',
      reason: `${stuck.map((a) => stuckPhrase(a, ctx.fmt, Jstar, ctx.iterationsDone, undefined, J)).join('; ')} — the claim is about the limit, so a finite run can only fail to show it.`,
    };
  return { verdict: 'undecided', reason: stillMoving(algos) ?? 'Undecided.' };
}

/** 1. GRAE-REINFORCE reaches J* when undiscounted. */
export function claim1(ctx: Ctx): Claim {
  const { input, termsJ } = ctx;
  const gr = termsJ.filter((a) => isGR(a.record));
  const extra = { gamma: input.gamma, objective: 'J' };
  if (gr.length === 0) return claim(1, 'not testable', `${NOT_TESTABLE}the experiment has no GRAE-REINFORCE algorithm (rule reinforce with advantage grae or rloo).`, gr, extra);
  if (input.gamma !== 1)
    return claim(1, 'not testable', `${NOT_TESTABLE}γ = ${input.gamma}, and the claim is about undiscounted training (γ = 1): a discounted learner may rightly settle elsewhere.`, gr, extra);
  const v = reachVerdict(gr, ctx, input.Jstar);
  return claim(1, v.verdict, v.reason, gr, extra);
}

/** The controls of a PPO-style algorithm X (claim 2): its exact-advantage twin, or else REV algorithms with the same step. */
export function controlsOf(ctx: Ctx, x: AlgorithmTerms, twins: (a: AlgorithmTerms, field: 'advantage') => AlgorithmTerms[]): { c: AlgorithmTerms; kind: 'advantage' | 'rev' }[] {
  const adv = twins(x, 'advantage').filter((c) => c.record.advantage === 'gae');
  if (adv.length) return adv.map((c) => ({ c, kind: 'advantage' as const }));
  return ctx.terms
    .filter((r) => isREV(r.record) && r.lr.key === x.lr.key && r.record.clip === x.record.clip && r.record.epochs === x.record.epochs)
    .map((c) => ({ c, kind: 'rev' as const }));
}

/** 2. PPO with GRAE can decrease J, where PPO with the true advantage would not. */
export function claim2(ctx: Ctx, twins: (a: AlgorithmTerms, field: 'advantage') => AlgorithmTerms[]): Claim {
  const { input, terms, fmt, objectiveName: J } = ctx;
  const pg = terms.filter((a) => isPG(a.record) && a.record.ratio === 'token');
  const checks = pg.map((x) => ({ x, controls: controlsOf(ctx, x, twins) }));
  const controls = unique(checks.flatMap((k) => k.controls.map((c) => c.c)));
  const extra: Record<string, unknown> = { objective: J, controls: evidenceOf(controls), pairs: [] as unknown[] };
  const make = (v: Verdict, reason: string) => claim(2, v, reason, pg, extra);
  if (pg.length === 0) return make('not testable', `${NOT_TESTABLE}the experiment has no PPO-style algorithm with GRAE and token ratios (rule ppu with advantage grae or rloo, ratio token).`);
  const why = dropsUntestable(input);
  if (why) return make('not testable', `${NOT_TESTABLE}${why}`);
  const results = checks.map(({ x, controls: cs }): { verdict: Verdict; reason: string } => {
    const none = withoutData([x, ...cs.map((c) => c.c)]);
    if (none.length) return { verdict: 'undecided', reason: noRunsReason(none) };
    const n = x.seeds.length, k = x.evidence.seedsWithDrops;
    if (k > 0) {
      const head = `${x.label}'s ${J} dropped in ${ofSeeds(k, n)} (${x.evidence.drops} ${plural(x.evidence.drops, 'drop')} in all; ${largestDropText(x, fmt)})`;
      if (cs.length === 0) return { verdict: 'undecided', reason: `Undecided: ${head}; drops seen, but no control is in the experiment — add the control (the same algorithm with advantage gae, or ${REV_TEXT} at the same learning rate, clip and epochs) to attribute them to GRAE.` };
      const fewer = cs.filter(({ c }) => clearlyMore(k, n, c.evidence.seedsWithDrops, c.seeds.length));
      const ctl = (c: AlgorithmTerms, kind: string) => `${c.label} (${kind === 'advantage' ? 'the same with the exact advantage' : 'reverse-order SeeUPO at the same step'}) had ${dropsPhrase(c, fmt)}`;
      for (const { c, kind } of cs) (extra.pairs as unknown[]).push({ algorithm: x.record.id, control: c.record.id, kind, dropSeeds: [k, n], controlDropSeeds: [c.evidence.seedsWithDrops, c.seeds.length], fewer: fewer.some((f) => f.c === c) });
      if (fewer.length) return { verdict: 'observed', reason: `${head}, while its control ${ctl(fewer[0].c, fewer[0].kind)}: the drops come from GRAE.` };
      const p = Math.min(...cs.map(({ c }) => fisherGreater(k, n, c.evidence.seedsWithDrops, c.seeds.length)));
      return {
        verdict: 'undecided',
        reason: `Undecided: ${head}, but its control ${cs.map(({ c, kind }) => ctl(c, kind)).join(' and ')} — not clearly fewer drops (one-sided Fisher test p = ${p.toFixed(2)}, and the shares of seeds differ by less than 0.25), so the drops cannot be put down to GRAE.`,
      };
    }
    if (allSettled([x])) return { verdict: 'not observed', reason: `${x.label}'s ${J} never dropped in ${n} ${plural(n, 'seed')}, and every seed has settled.` };
    return { verdict: 'undecided', reason: `Undecided: no drop of ${J} so far, but ${movingClause([x]) ?? 'not every seed has settled'}; run longer.` };
  });
  const verdict = combine(results.map((r) => r.verdict));
  const chosen = results.filter((r) => r.verdict === verdict).map((r) => r.reason);
  return make(verdict, chosen.length === 1 ? chosen[0] : chosen.map((r, i) => (i === 0 ? r.replace(/\.$/, '') : r.replace(/^Undecided: /, '').replace(/\.$/, ''))).join('; ') + '.');
}

const seedList = (xs: readonly number[]) => (xs.length ? xs.join(', ') : 'none');

/** 3. Critic-free simultaneous methods can miss J* where reverse-order SeeUPO reaches it. */
export function claim3(ctx: Ctx): Claim {
  const { terms, fmt } = ctx;
  const cf = terms.filter((a) => isCF(a.record));
  const rev = terms.filter((a) => isREV(a.record));
  const pairs = cf.flatMap((c) =>
    rev
      .filter((r) => r.lr.key === c.lr.key)
      .map((r) => {
        const stuck = c.seeds.filter((t) => t.stuck).map((t) => t.seedIndex);
        const revAt = new Set(r.seeds.filter((t) => t.atJstar).map((t) => t.seedIndex));
        return { c, r, stuck, common: stuck.filter((s) => revAt.has(s)) };
      }),
  );
  const paired = unique(pairs.flatMap((p) => [p.c, p.r]));
  const seedIndices = [...new Set(pairs.flatMap((p) => p.common))].sort((a, b) => a - b);
  const extra = {
    objective: ctx.objectiveName,
    pairs: pairs.map((p) => ({ cf: p.c.record.id, rev: p.r.record.id, lr: p.c.lr.value, normalization: [p.c.record.normalization, p.r.record.normalization], seedIndices: p.common })),
    seedIndices,
  };
  const make = (v: Verdict, reason: string) => claim(3, v, reason, paired.length ? paired : [...cf, ...rev], extra);
  if (cf.length === 0) return make('not testable', `${NOT_TESTABLE}the experiment has no critic-free simultaneous algorithm (rule reinforce or ppu with advantage grae or rloo).`);
  if (rev.length === 0) return make('not testable', `${NOT_TESTABLE}the experiment has no ${REV_TEXT}.`);
  if (pairs.length === 0)
    return make(
      'not testable',
      `${NOT_TESTABLE}no critic-free algorithm has the same learning rate as ${joinAnd(rev.map((r) => r.label))} (learning rates ${joinAnd(unique([...cf, ...rev]).map((a) => `${a.label}: ${a.lr.value}`))}); the comparison needs equal steps.`,
    );
  const none = withoutData(paired);
  if (none.length) return make('undecided', noRunsReason(none));
  const normNote = (p: (typeof pairs)[number]) =>
    p.c.record.normalization !== p.r.record.normalization ? ` (they also differ in normalization: ${p.c.record.normalization} vs ${p.r.record.normalization})` : '';
  const best = pairs.filter((p) => p.common.length > 0).sort((x, y) => y.common.length - x.common.length || y.stuck.length - x.stuck.length)[0];
  if (best) {
    const stuckSeeds = best.c.seeds.filter((t) => best.common.includes(t.seedIndex));
    return make(
      'observed',
      `${stuckPhrase(best.c, fmt, ctx.objectiveStar, ctx.iterationsDone, stuckSeeds, ctx.objectiveName)}, while ${best.r.label}, at the same learning rate ${best.c.lr.value}${normNote(best)}, reached it in ${plural(best.common.length, 'seed')} ${seedList(best.common)}.`,
    );
  }
  const pcf = unique(pairs.map((p) => p.c));
  if (pcf.every((a) => a.seeds.length > 0 && a.seeds.every((t) => t.atJstar))) return make('not observed', `${reachedPhrase(pcf, ctx.objectiveName)}: no critic-free method missed it.`);
  if (allSettled(paired))
    return make(
      'not observed',
      `Every seed has settled, and in no seed did ${joinAnd(pcf.map((a) => a.label))} stay below ${ctx.objectiveName}* where ${joinAnd(unique(pairs.map((p) => p.r)).map((a) => a.label))} reached it (at ${ctx.objectiveName}*: ${joinAnd(paired.map((a) => `${a.label} ${ofSeeds(a.atJstar, a.seeds.length)}`))}); running longer will not change that.`,
    );
  return make('undecided', stillMoving(paired) ?? 'Undecided.');
}

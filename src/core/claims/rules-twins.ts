// Claims 4 and 5 of docs/claims.md (rules version 2): reverse-order SeeUPO, and the checks that
// compare twins (algorithms equal in every field but the one compared; groups.ts).

import type { AlgorithmRecord } from '../algo/records';
import { clipSchedules, differingFields, isREV } from './groups';
import { allSettled, claim, combine, dropsUntestable, NOT_TESTABLE, reachVerdict, REV_TEXT, unique, type Ctx } from './rules';
import { clearlyMore } from './stats';
import type { AlgorithmTerms } from './terms';
import { dropsPhrase, joinAnd, noRunsReason, plural, shareText, stillMoving, stripDot, withoutData } from './text';
import type { Claim, ClaimPart, Verdict } from './types';

/** The algorithms that are twins of `a` for `field` (equal in every other field, effective learning rate and clip schedule included). */
export function twinsOf(ctx: Ctx, a: AlgorithmTerms, field: keyof AlgorithmRecord): AlgorithmTerms[] {
  const differ = differencesOf(ctx);
  return ctx.terms.filter((b) => b !== a && a.record !== b.record && isOnly(differ(a, b), field));
}

const isOnly = (d: readonly string[], field: string) => d.length === 1 && d[0] === field;

/**
 * differingFields of two algorithms (with their clip schedules and effective learning rates, as
 * isTwin compares them), each pair computed once per set of verdicts: the claims ask for twins
 * by several fields, and each ask compared every pair again. Kept per Ctx only, as a record may
 * change between one set of verdicts and the next (a clip changed live).
 */
function differencesOf(ctx: Ctx): (a: AlgorithmTerms, b: AlgorithmTerms) => readonly string[] {
  let memo = DIFFERENCES.get(ctx);
  if (!memo) {
    const clips = clipSchedules(ctx.input);
    const known = new Map<string, string[]>();
    memo = (a, b) => {
      const key = `${a.index} ${b.index}`;
      let d = known.get(key);
      if (!d) known.set(key, (d = differingFields(a.record, b.record, [clips[a.index]!, clips[b.index]!], [a.lr.key, b.lr.key])));
      return d;
    };
    DIFFERENCES.set(ctx, memo);
  }
  return memo;
}
const DIFFERENCES = new WeakMap<Ctx, (a: AlgorithmTerms, b: AlgorithmTerms) => readonly string[]>();

const median = (v: number) => (Number.isFinite(v) ? `${v}` : 'never');

/** (a) monotone: no drop in any seed of REV (needs exact updates); observed once every seed has settled. */
function partA(ctx: Ctx, rev: readonly AlgorithmTerms[], names: string): ClaimPart {
  const why = dropsUntestable(ctx.input);
  if (why) return { part: 'a', verdict: 'not testable', reason: `${NOT_TESTABLE}${why}` };
  const none = withoutData(rev);
  if (none.length) return { part: 'a', verdict: 'undecided', reason: noRunsReason(none) };
  const dropped = rev.filter((x) => x.evidence.drops > 0);
  if (dropped.length) return { part: 'a', verdict: 'not observed', reason: `${ctx.objectiveName} fell: ${dropped.map((x) => `${x.label} had ${dropsPhrase(x, ctx.fmt)}`).join('; ')}.` };
  const diverged = rev.reduce((k, x) => k + x.evidence.diverged, 0);
  const divText = diverged ? ` (${diverged} ${plural(diverged, 'seed')} diverged, which is not a drop)` : '';
  const seeds = joinAnd(rev.map((x) => `${x.seeds.length} ${plural(x.seeds.length, 'seed')}`));
  if (allSettled(rev)) return { part: 'a', verdict: 'observed', reason: `${names}'s ${ctx.objectiveName} never dropped in ${seeds}${divText}.` };
  return { part: 'a', verdict: 'undecided', reason: `Undecided: no drop of ${ctx.objectiveName} so far in ${seeds}, but ${stillMoving(rev)!.replace(/^Undecided: /, '').replace(/; run longer\.$/, '')}.` };
}

/** (c) order matters: a twin differing only in order has a clearly lower share at J*, or a median t95 ≥ 1.5× REV's and ≥ 3 more. */
function partC(ctx: Ctx, rev: readonly AlgorithmTerms[], names: string) {
  const pairs = rev.flatMap((r) => twinsOf(ctx, r, 'order').map((t) => ({ r, t })));
  const twins = pairs.map(({ r, t }) => {
    const both = [r, t];
    let verdict: Verdict;
    let text: string;
    const nums = `at ${ctx.objectiveName}* ${shareText(t.atJstar, t.seeds.length)} vs ${shareText(r.atJstar, r.seeds.length)}, median iterations to 95% of the way ${median(t.medianT95)} vs ${median(r.medianT95)}`;
    const none = withoutData(both);
    if (none.length) [verdict, text] = ['undecided', noRunsReason(none).replace(/^Undecided: /, '').replace(/\.$/, '')];
    else if (!allSettled(both)) [verdict, text] = ['undecided', stillMoving(both)!.replace(/^Undecided: /, '').replace(/; run longer\.$/, '')];
    else {
      const lower = clearlyMore(r.atJstar, r.seeds.length, t.atJstar, t.seeds.length);
      const slower = Number.isFinite(r.medianT95) && t.medianT95 >= 1.5 * r.medianT95 && t.medianT95 >= r.medianT95 + 3;
      verdict = lower || slower ? 'observed' : 'not observed';
      const what = lower ? `reached ${ctx.objectiveName}* in clearly fewer seeds` : slower ? 'was clearly slower' : 'did about as well';
      text = `${t.label}, in ${t.record.order} order but otherwise equal to ${r.label}, ${what}: ${nums}`;
    }
    return { rev: r.record.id, twin: t.record.id, field: 'order', values: [r.record.order, t.record.order], verdict, text, r, t };
  });
  let c: ClaimPart;
  if (pairs.length === 0) c = { part: 'c', verdict: 'not testable', reason: `${NOT_TESTABLE}no algorithm equals ${names} in every field but order (a forward- or random-order twin).` };
  else {
    const verdict = combine(twins.map((x) => x.verdict));
    const shown = twins.filter((x) => x.verdict === verdict).map((x) => x.text);
    const body = `${shown.join('; ')}.`;
    c = { part: 'c', verdict, reason: verdict === 'undecided' ? `Undecided until every seed of both has settled: ${body}` : body[0].toUpperCase() + body.slice(1) };
  }
  return { c, twins };
}

/** 4. SeeUPO in reverse order improves monotonically and reaches J*; forward or random order need not. */
export function claim4(ctx: Ctx): Claim {
  const rev = ctx.terms.filter((a) => isREV(a.record));
  if (rev.length === 0) {
    const reason = `${NOT_TESTABLE}the experiment has no ${REV_TEXT}.`;
    const parts = (['a', 'b', 'c'] as const).map((part): ClaimPart => ({ part, verdict: 'not testable', reason }));
    return { ...claim(4, 'not testable', reason, [], { objective: ctx.objectiveName, twins: [] }), parts };
  }
  const names = joinAnd(rev.map((a) => a.label));
  const a = partA(ctx, rev, names);
  const vb = reachVerdict(rev, ctx, ctx.objectiveStar, ctx.objectiveName);
  const b: ClaimPart = { part: 'b', verdict: vb.verdict, reason: vb.reason };
  const { c, twins } = partC(ctx, rev, names);
  const algos = unique([...rev, ...twins.map((x) => x.t)]);
  const extra = { objective: ctx.objectiveName, twins: twins.map(({ r, t, text, ...rest }) => (void r, void t, void text, rest)) };

  // the guarantee is (a) and (b); (c) has its own verdict, never folded in
  let verdict: Verdict, reason: string;
  const notObs = [a, b].find((p) => p.verdict === 'not observed');
  if (notObs) [verdict, reason] = ['not observed', `Part (${notObs.part}) not observed: ${notObs.reason}`];
  else if (a.verdict === 'observed' && b.verdict === 'observed') [verdict, reason] = ['observed', `Monotone and at ${ctx.objectiveName}*: (a) ${stripDot(a.reason)}; (b) ${b.reason}`];
  else if (a.verdict === 'not testable') [verdict, reason] = ['not testable', `${NOT_TESTABLE}part (a), monotone improvement, ${a.reason.replace(NOT_TESTABLE, 'is not testable: ')}`];
  else if (withoutData(rev).length) [verdict, reason] = ['undecided', noRunsReason(withoutData(rev))];
  else {
    verdict = 'undecided';
    const open = [a, b].filter((p) => p.verdict !== 'observed');
    reason = `Undecided: ${open.map((p) => `(${p.part}) ${stripDot(p.reason.replace(/^Undecided: /, ''))}`).join('; ')}.`;
  }
  return { ...claim(4, verdict, reason, algos, extra), parts: [a, b, c] };
}

/** Whether two algorithms ended in different places: shares clearly apart, or mean final values ≥ tol apart with disjoint 95% intervals. */
function differ(x: AlgorithmTerms, y: AlgorithmTerms, tol: number): { differ: boolean; shareDiff: number; meanDiff: number | null; apart: boolean } {
  const shares = clearlyMore(x.atJstar, x.seeds.length, y.atJstar, y.seeds.length) || clearlyMore(y.atJstar, y.seeds.length, x.atJstar, x.seeds.length);
  const meanDiff = Math.abs(x.finalJ.mean - y.finalJ.mean);
  const apart = x.finalJ.lo > y.finalJ.hi || x.finalJ.hi < y.finalJ.lo;
  return { differ: shares || (meanDiff >= tol * (1 - 1e-9) && apart), shareDiff: Math.abs(x.share - y.share), meanDiff: Number.isFinite(meanDiff) ? meanDiff : null, apart };
}

/** 5. Group std normalization changes where training ends; batch normalization does not move it. */
export function claim5(ctx: Ctx): Claim {
  const { input, fmt } = ctx;
  const tol = 0.01 * input.rewardRange;
  const pairs = ctx.terms
    .filter((g) => g.record.normalization === 'group')
    .flatMap((g) =>
      twinsOf(ctx, g, 'normalization')
        .filter((b) => b.record.normalization === 'batch')
        .map((b) => ({ g, b, none: twinsOf(ctx, b, 'normalization').filter((n) => n.record.normalization === 'none') })),
    );
  const algos = unique(pairs.flatMap((p) => [p.g, p.b, ...p.none]));
  const evPairs: Record<string, unknown>[] = [];
  const make = (v: Verdict, reason: string) => claim(5, v, reason, algos, { objective: ctx.objectiveName, pairs: evPairs });
  const policy = input.policy ?? { kind: 'tabular' };
  if (policy.kind === 'tabular' && !policy.shareContexts)
    return make(
      'not testable',
      `${NOT_TESTABLE}the policy is a plain table, which shares no parameters across contexts: normalization then only rescales each context's step size, so it cannot move where training ends (a table shared across contexts, or an MLP, can show it).`,
    );
  if (input.contexts === 1) return make('not testable', `${NOT_TESTABLE}with one context, group and batch normalization coincide exactly; the difference needs several contexts.`);
  if (input.mode === 'sampled' && (input.contextsPerBatch ?? input.contexts) === 1)
    return make('not testable', `${NOT_TESTABLE}with one context per batch (contextsPerBatch 1), group and batch normalization coincide exactly in sampled mode.`);
  if (pairs.length === 0) return make('not testable', `${NOT_TESTABLE}no two algorithms differ only in normalization, one group and the other batch.`);
  const J = ctx.objectiveName;
  const results = pairs.map(({ g, b, none }) => {
    const involved = [g, b, ...none];
    const gb = differ(g, b, tol);
    const bn = none.map((n) => ({ n, ...differ(b, n, tol) }));
    evPairs.push({ group: g.record.id, batch: b.record.id, none: none.map((n) => n.record.id), groupVsBatch: { differ: gb.differ, shareDiff: gb.shareDiff, meanDiff: gb.meanDiff, intervalsApart: gb.apart }, batchVsNone: bn.map((x) => ({ none: x.n.record.id, differ: x.differ, shareDiff: x.shareDiff, meanDiff: x.meanDiff, intervalsApart: x.apart })) });
    const where = (x: AlgorithmTerms) => `${x.label} (${x.record.normalization}) at ${J}* in ${shareText(x.atJstar, x.seeds.length)}, final ${J} ${fmt.meanInterval(x.finalJ)}`;
    const missing = withoutData(involved);
    if (missing.length) return { verdict: 'undecided' as Verdict, reason: noRunsReason(missing) };
    if (!allSettled(involved)) return { verdict: 'undecided' as Verdict, reason: `${stillMoving(involved)!.replace(/; run longer\.$/, '')}: where training ends is not known yet; run longer.` };
    const moved = bn.find((x) => x.differ);
    evPairs[evPairs.length - 1].verdict = !gb.differ || moved ? 'not observed' : 'observed';
    if (!gb.differ) return { verdict: 'not observed' as Verdict, reason: `Every seed has settled and group and batch normalization ended in the same place: ${where(g)}; ${where(b)}.` };
    if (moved) return { verdict: 'not observed' as Verdict, reason: `Group and batch normalization ended in different places, but batch normalization moved it as well: ${where(b)}, while with no normalization ${where(moved.n)}.` };
    const noneText = none.length ? `; batch agrees with no normalization (${none.map(where).join('; ')})` : '';
    return { verdict: 'observed' as Verdict, reason: `Training ended in different places: ${where(g)}, but ${where(b)}${noneText}.` };
  });
  const verdict = combine(results.map((r) => r.verdict));
  const chosen = results.filter((r) => r.verdict === verdict).map((r) => r.reason);
  return make(verdict, oneSentence(chosen, 'group/batch pairs'));
}

/** Several pairs' reasons as the one sentence a verdict's reason is: "In 2 group/batch pairs: (1) …; (2) …." */
export function oneSentence(reasons: string[], what: string): string {
  if (reasons.length === 1) return reasons[0];
  return `In ${reasons.length} ${what}: ${reasons.map((r, i) => `(${i + 1}) ${r.replace(/\.$/, '')}`).join('; ')}.`;
}

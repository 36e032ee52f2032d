// Claims 4 and 5 of algorithms.md §8 (version 1): reverse-order SeeUPO, and the checks that
// compare twins (algorithms equal in every field but the one compared; groups.ts).

import { clipSchedules, isREV, isTwin } from './groups';
import { claim, dropsUntestable, DIFF_SLACK, NOT_TESTABLE, reachVerdict, REV_TEXT, type Ctx } from './rules';
import type { AlgorithmTerms } from './terms';
import { joinAnd, ofSeeds, plural, stillMoving, stripDot } from './text';
import type { AlgorithmRecord } from '../algo/records';
import type { Claim, ClaimPart, Verdict } from './types';

/** Pairs (a, b) of the experiment's algorithms with b a twin of a for `field`, a and b chosen by the filters. */
function twinPairs(ctx: Ctx, field: keyof AlgorithmRecord, first: (a: AlgorithmTerms) => boolean, second: (b: AlgorithmTerms) => boolean) {
  const clips = clipSchedules(ctx.input);
  return ctx.terms
    .filter(first)
    .flatMap((a) => ctx.terms.filter((b) => b !== a && second(b) && isTwin(a.record, b.record, field, [clips[a.index], clips[b.index]])).map((b) => ({ a, b })));
}

const unique = (xs: readonly AlgorithmTerms[]) => [...new Set(xs)].sort((x, y) => x.index - y.index);

/** Several pairs: observed if any is, else undecided if any is, else not observed. */
function combine(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.includes('observed')) return 'observed';
  if (verdicts.includes('undecided')) return 'undecided';
  return 'not observed';
}

const median = (v: number) => (Number.isFinite(v) ? `${v}` : 'never');

/** 4. SeeUPO in reverse order improves monotonically and reaches J*; forward or random order need not. */
export function claim4(ctx: Ctx): Claim {
  const { input, fmt } = ctx;
  const rev = ctx.terms.filter((a) => isREV(a.record));
  const pairs = twinPairs(ctx, 'order', (a) => isREV(a.record), () => true);
  const twins = pairs.map(({ a, b }) => ({ rev: a.record.id, twin: b.record.id, field: 'order', values: [a.record.order, b.record.order], verdict: 'not observed' as Verdict }));
  const extra = { twins };
  const algos = unique([...rev, ...pairs.map((p) => p.b)]);
  if (rev.length === 0) {
    const reason = `${NOT_TESTABLE}the experiment has no ${REV_TEXT}.`;
    const parts = (['a', 'b', 'c'] as const).map((part): ClaimPart => ({ part, verdict: 'not testable', reason }));
    return { ...claim(4, 'not testable', reason, algos, extra), parts };
  }
  const names = joinAnd(rev.map((a) => a.label));

  // (a) monotone: no drops (needs exact updates). A divergence is not a drop (§7): said, not counted.
  let a: ClaimPart;
  const why = dropsUntestable(input);
  const diverged = rev.reduce((k, x) => k + x.evidence.diverged, 0);
  const divText = diverged ? ` (${diverged} ${plural(diverged, 'seed')} diverged, which is not a drop)` : '';
  if (why) a = { part: 'a', verdict: 'not testable', reason: `${NOT_TESTABLE}${why}` };
  else if (rev.every((x) => x.evidence.drops === 0))
    a = { part: 'a', verdict: 'observed', reason: `${names} had no drop of J in ${joinAnd(rev.map((x) => `${x.seeds.length} ${plural(x.seeds.length, 'seed')}`))}${divText}.` };
  else {
    const what = rev.filter((x) => x.evidence.drops > 0).map((x) => `${x.label}'s J dropped ${x.evidence.drops} ${plural(x.evidence.drops, 'time')} in ${ofSeeds(x.evidence.seedsWithDrops, x.seeds.length)}`);
    a = { part: 'a', verdict: 'not observed', reason: `${joinAnd(what)}.` };
  }

  // (b) reaches J*
  const vb = reachVerdict(rev, fmt);
  const b: ClaimPart = { part: 'b', verdict: vb.verdict, reason: vb.reason };

  // (c) order matters: a twin differing only in order has a lower share, or a median t95 ≥ 1.5× REV's
  // and ≥ 3 more (never reached = ∞; when REV's own median is ∞ the twin cannot be slower than it).
  let c: ClaimPart;
  if (pairs.length === 0) c = { part: 'c', verdict: 'not testable', reason: `${NOT_TESTABLE}no algorithm equals ${names} in every field but order (a forward- or random-order twin).` };
  else {
    const phrases = pairs.map(({ a: r, b: t }, i) => {
      const lower = t.share < r.share;
      const slower = Number.isFinite(r.medianT95) && t.medianT95 >= 1.5 * r.medianT95 && t.medianT95 >= r.medianT95 + 3;
      twins[i].verdict = lower || slower ? 'observed' : 'not observed';
      const nums = `J* in ${ofSeeds(t.evidence.atJstar, t.seeds.length)} vs ${ofSeeds(r.evidence.atJstar, r.seeds.length)}, median iterations to 95% ${median(t.medianT95)} vs ${median(r.medianT95)}`;
      return { observed: lower || slower, text: `${t.label}, in ${t.record.order} order but otherwise equal to ${r.label}, ${lower || slower ? `did worse (${lower ? 'a lower share at J*' : 'slower'})` : 'did as well'}: ${nums}` };
    });
    const verdict = combine(twins.map((x) => x.verdict));
    const shown = verdict === 'observed' ? phrases.filter((p) => p.observed) : phrases;
    c = { part: 'c', verdict, reason: `${shown.map((p) => p.text).join('; ')}.` };
  }

  const parts = [a, b, c];
  const vs = parts.map((p) => p.verdict);
  const notObs = parts.find((p) => p.verdict === 'not observed');
  let verdict: Verdict, reason: string;
  if (notObs) [verdict, reason] = ['not observed', `Part (${notObs.part}) not observed: ${notObs.reason}`];
  else if (vs.every((v) => v === 'observed')) [verdict, reason] = ['observed', `All three parts observed: (a) ${stripDot(a.reason)}; (b) ${stripDot(b.reason)}; (c) ${c.reason}`];
  else if (b.verdict === 'not testable') [verdict, reason] = ['not testable', b.reason];
  else {
    verdict = 'undecided';
    const open = parts.filter((p) => p.verdict !== 'observed');
    const lead = (r: string) => (/^(Not testable|Undecided)/.test(r) ? r[0].toLowerCase() + r.slice(1) : r);
    reason = `Undecided: ${parts.map((p) => `(${p.part}) ${p.verdict}`).join(', ')}; ${open.map((p) => `(${p.part}) ${lead(stripDot(p.reason))}`).join('; ')}.`;
  }
  return { ...claim(4, verdict, reason, algos, extra), parts };
}

/** 5. Group std normalization changes where training ends; batch normalization does not move it. */
export function claim5(ctx: Ctx): Claim {
  const { input, fmt } = ctx;
  const all = twinPairs(
    ctx,
    'normalization',
    (g) => g.record.normalization === 'group',
    (o) => o.record.normalization === 'batch' || o.record.normalization === 'none',
  );
  // one context: group and batch normalization coincide exactly (algorithms.md §3), so such a pair tells nothing
  const pairs = input.contexts === 1 ? all.filter((p) => p.b.record.normalization !== 'batch') : all;
  const evPairs = pairs.map(({ a: g, b: o }) => {
    const shareDiff = Math.abs(g.share - o.share);
    const meanDiff = Math.abs(g.finalJ.mean - o.finalJ.mean);
    const apart = g.finalJ.lo > o.finalJ.hi || g.finalJ.hi < o.finalJ.lo;
    const differ = shareDiff >= 0.25 - DIFF_SLACK || (meanDiff >= 0.01 - DIFF_SLACK && apart);
    const settled = [g, o].every((x) => x.seeds.length > 0 && x.seeds.every((t) => t.settled));
    const verdict: Verdict = settled ? (differ ? 'observed' : 'not observed') : 'undecided';
    return { group: g.record.id, other: o.record.id, field: 'normalization', values: ['group', o.record.normalization], verdict, shareDiff, meanDiff: Number.isFinite(meanDiff) ? meanDiff : null, intervalsApart: apart, g, o };
  });
  const evidence = { pairs: evPairs.map(({ g, o, ...rest }) => (void g, void o, rest)) };
  const algos = unique(pairs.flatMap((p) => [p.a, p.b]));
  const make = (v: Verdict, reason: string) => claim(5, v, reason, algos, evidence);
  if (all.length === 0)
    return make('not testable', `${NOT_TESTABLE}no two algorithms differ only in normalization (one group, the other batch or none).`);
  if (pairs.length === 0) {
    const ids = joinAnd(all.map((p) => `${p.a.label} and ${p.b.label}`));
    return claim(5, 'not testable', `${NOT_TESTABLE}with one context, group and batch normalization coincide exactly (${ids} compare them); the difference needs several contexts.`, unique(all.flatMap((p) => [p.a, p.b])), evidence);
  }
  const verdict = combine(evPairs.map((p) => p.verdict));
  const phrase = (p: (typeof evPairs)[number]) => {
    const f = (x: AlgorithmTerms) => fmt.meanInterval(x.finalJ);
    return `${p.g.label} (group) vs ${p.o.label} (${p.o.record.normalization}): J* in ${ofSeeds(p.g.evidence.atJstar, p.g.seeds.length)} vs ${ofSeeds(p.o.evidence.atJstar, p.o.seeds.length)}, final J ${f(p.g)} vs ${f(p.o)}`;
  };
  if (verdict === 'observed') return make('observed', `Training ended in different places: ${evPairs.filter((p) => p.verdict === 'observed').map(phrase).join('; ')}.`);
  if (verdict === 'not observed') return make('not observed', `Every seed has settled and training ended in the same place: ${evPairs.map(phrase).join('; ')}.`);
  return make('undecided', stillMoving(algos) ?? 'Undecided.');
}

import { useEffect, useMemo, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { memoLast } from '../memo-last';
import { CLAIMS_RULES, jDecimals, type Claim, type ClaimPart } from '../../core/claims';
import { claimSentence, judgeLive } from '../../core/metrics/captions';
import { CLAIM_TEXT, VERDICT_MEANING, verdictWord, type ClaimNumber } from '../claims-text';
import { currentLesson, selectClaim, useApp } from '../store';
import { lessonVerdict } from '../../core/lessons/verdict';
import type { Lesson } from '../../core/lessons/types';
import { evidenceCells, highlightCss, highlightOf } from '../verdicts';
import type { Plan } from '../plan';
import type { Live } from '../live';
import { liveSummaries } from './SummaryTable';
import { SLOTS, timedSlot, useShownData } from './charts/common';
import './claims.css';

// The verdicts on the paper's five claims for the experiment on the page, beside the return chart:
// each with its reason, and (selected) its evidence; selecting one highlights in the charts the
// algorithms and seeds it was decided on. Updated as the run streams.

export interface LiveClaims {
  claims: Claim[];
  /** The iteration the verdicts are of (every run has completed it); −1 before a run. */
  iteration: number;
  total: number;
  ran: boolean;
  /** The version of the verdict rules (docs/claims.md). */
  rules: number;
}

/** The last verdicts computed: the panel, the Claims view's cards, the banner and the tour share them. */
const liveClaims = memoLast(({ plan, live, version }: { plan: Plan; live: Live | null; version: number }) => [plan, live, version], ({ plan, live, version }) => timedSlot(SLOTS.claims, () => {
  const summaries = liveSummaries({ plan, live, version, slot: SLOTS.claims });
  const { claims } = judgeLive(plan.exp, plan.Jstar, summaries); // shared with the caption (captions.ts)
  const ran = summaries.length > 0 && summaries.some((s) => s.finals.some(Number.isFinite));
  return { claims, iteration: ran ? summaries[0].iteration : -1, total: plan.exp.iterations, ran, rules: CLAIMS_RULES };
}));

/** The five verdicts on the live runs (computeClaims, the CLI's engine), recomputed as they stream. */
export function useLiveClaims(): LiveClaims | null {
  const plan = useApp((s) => s.plan);
  // in a task of their own, at their own pace on a large experiment (charts/common.tsx)
  const { live, version } = useShownData(SLOTS.claims);
  return useMemo(() => (plan ? liveClaims({ plan, live, version }) : null), [plan, live, version]);
}

/** A verdict as a small coloured label. */
export function VerdictBadge({ verdict, testId }: { verdict: string; testId?: string }) {
  const word = verdictWord(verdict);
  return (
    <span className={`verdict-badge verdict-${word}`} data-verdict={word} data-testid={testId} title={VERDICT_MEANING[word]}>
      {verdict}
    </span>
  );
}

const reasonOf = (c: Claim) => claimSentence(c).replace(/^Claim \d \([^)]*\): [^—]*— /, '');

function Parts({ parts }: { parts: ClaimPart[] }) {
  return (
    <ul className="verdict-parts">
      {parts.map((p) => (
        <li key={p.part} data-part={p.part}>
          <span className="verdict-part-name">({p.part})</span> <VerdictBadge verdict={p.verdict} /> {p.reason}
        </li>
      ))}
    </ul>
  );
}

/**
 * A sentence with every algorithm label in it isolated (<bdi>): a label in a right-to-left script
 * (or ending in neutral characters) reorders only itself, never the words around it.
 */
export function IsolatedLabels({ text, labels }: { text: string; labels: readonly string[] }) {
  const found = [...new Set(labels)].filter((l) => l && text.includes(l)).sort((a, b) => b.length - a.length);
  if (found.length === 0) return <>{text}</>;
  const re = new RegExp(found.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const out: React.ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(<bdi key={out.length}>{m[0]}</bdi>);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}

/**
 * Claim 4's part (c), "order matters", beside claim 4's row: a verdict of its own (docs/claims.md),
 * never folded into claim 4's, which is the guarantee (a and b).
 */
function OrderVerdict({ part }: { part: ClaimPart }) {
  return (
    <p className="verdict-reason verdict-4c" data-testid="verdict-claim-4c" data-verdict={verdictWord(part.verdict)}>
      <span className="verdict-part-name">(c) order matters:</span> <VerdictBadge verdict={part.verdict} /> {part.reason.replace(/^(Not testable here|Undecided): /, '')}
    </p>
  );
}

/** The numbers a verdict was decided on: per algorithm seeds, at J*, stuck, drops, t95, final J ± interval; and what the claim compared. */
function Evidence({ c, plan }: { c: Claim; plan: Plan }) {
  const d = jDecimals(plan.rewardRange[1] - plan.rewardRange[0]);
  const num = (v: number) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
  const line = (id: string) => plan.algorithms.find((a) => a.id === id);
  const rev = c.claim === 2 && Array.isArray(c.evidence.controls) ? (c.evidence.controls as Claim['evidence']['algorithms']) : [];
  const rows = [...c.evidence.algorithms.map((e) => ({ e, rev: false })), ...rev.map((e) => ({ e, rev: true }))];
  const seeds = c.claim === 3 && Array.isArray(c.evidence.seedIndices) ? (c.evidence.seedIndices as number[]) : null;
  type Cmp = { differ: boolean; shareDiff: number; meanDiff: number | null };
  const pairs =
    c.claim === 5 && Array.isArray(c.evidence.pairs)
      ? (c.evidence.pairs as { group: string; batch: string; groupVsBatch: Cmp; batchVsNone: (Cmp & { none: string })[]; verdict?: string }[])
      : [];
  const cmp = (x: Cmp) => `shares at J* differ by ${x.shareDiff.toFixed(2)}, mean final J by ${x.meanDiff === null ? 'n/a' : num(x.meanDiff)} (${x.differ ? 'apart' : 'the same place'})`;
  const h = highlightOf(c);
  const names = h.algorithms.map((id) => line(id)?.label ?? id);
  return (
    <div className="verdict-evidence" data-testid={`evidence-${c.claim}`}>
      {c.parts && <Parts parts={c.parts} />}
      {rows.length > 0 ? (
        <div className="evidence-scroll">
          <table className="evidence-table">
            <thead>
              <tr>
                <th scope="col">algorithm</th>
                <th scope="col" title="Seeds (runs) of the algorithm">n</th>
                <th scope="col" title="Seeds whose final J is within 1% of the reward range of J*, with the 95% Clopper–Pearson interval of the share">J*</th>
                <th scope="col" title="Seeds stalled below J* (diverged seeds count here)">stuck</th>
                <th scope="col" title="Drops of J (falls of 0.1% of the reward range or more in one update), in how many seeds, and the largest with its seed, iteration and KL">drops</th>
                <th scope="col" title="Median over seeds of the first iteration 95% of the way to J* (∞: most seeds never got there)">t95</th>
                <th scope="col" title="Mean final J over seeds ± half-width of its 95% interval">final J</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ e, rev: isRev }) => {
                const cells = evidenceCells(e, num);
                const l = line(e.id);
                return (
                  <tr key={`${isRev ? 'rev-' : ''}${e.id}`} data-id={e.id}>
                    <th scope="row" title={`${l?.label ?? e.id}${isRev ? ' (a control: the exact-advantage twin or reverse-order SeeUPO at the same step, beside the PPO-style algorithms)' : ''}`}>
                      {l && <span className="swatch" style={{ background: l.color }} />}
                      <bdi>{l?.label ?? e.id}</bdi>
                      {isRev ? <span className="muted-inline"> (control)</span> : null}
                    </th>
                    <td>{cells.seeds}</td>
                    <td>{cells.atJstar}</td>
                    <td>{cells.stuck}</td>
                    <td>{cells.drops}</td>
                    <td>{cells.t95}</td>
                    <td className="evidence-final">{cells.finalJ}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No algorithm of this experiment takes part in this check.</p>
      )}
      {c.claim === 1 && typeof c.evidence.gamma === 'number' ? <p className="evidence-extra">γ = {c.evidence.gamma}</p> : null}
      {seeds ? (
        <p className="evidence-extra" data-testid="evidence-seeds">
          Seed indices where reverse-order SeeUPO reached J* and a critic-free method stayed stuck: {seeds.length ? seeds.join(', ') : 'none'}
        </p>
      ) : null}
      {pairs.length > 0 && (
        <ul className="evidence-extra">
          {pairs.map((p) => (
            <li key={`${p.group}-${p.batch}`}>
              <bdi>{line(p.group)?.label ?? p.group}</bdi> (group) vs <bdi>{line(p.batch)?.label ?? p.batch}</bdi> (batch): {cmp(p.groupVsBatch)}
              {p.batchVsNone.map((n, i) => <span key={i}>; batch vs <bdi>{line(n.none)?.label ?? n.none}</bdi> (none): {cmp(n)}</span>)}
              {p.verdict ? ` — ${p.verdict}` : ' — undecided'}
            </li>
          ))}
        </ul>
      )}
      <p className="muted evidence-highlight" data-testid="highlight-note">
        {names.length
          ? <>Highlighted in the charts: {names.map((n, i) => <span key={i}>{i ? ', ' : ''}<bdi>{n}</bdi></span>)}{h.seeds ? `; seeds ${h.seeds.join(', ')} in the seed charts` : ''}.</>
          : 'Nothing to highlight: no algorithm of this experiment takes part.'}
      </p>
    </div>
  );
}

/**
 * Applies `css` to the page as an adopted style sheet while the panel shows it. Not a <style>
 * element: the page's Content-Security-Policy (csp.config.ts) allows no inline style elements,
 * while style sheets built through the CSSOM are the page's own code.
 */
function useAdoptedCss(css: string): void {
  const sheet = useMemo(() => (typeof CSSStyleSheet !== 'undefined' && 'replaceSync' in CSSStyleSheet.prototype ? new CSSStyleSheet() : null), []);
  useEffect(() => {
    if (!sheet || !css) return;
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return () => {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((x) => x !== sheet);
    };
  }, [sheet, css]);
}

/** The five verdicts; Enter/Space or a click selects one (again: unselects), ↑/↓ move between them, Escape unselects. */
export function VerdictPanel({ large = false }: { large?: boolean }) {
  const plan = useApp((s) => s.plan);
  const status = useApp((s) => s.status);
  const selected = useApp((s) => s.selectedClaim);
  const live = useLiveClaims();
  const list = useRef<HTMLOListElement>(null);
  const chosen = live?.claims.find((c) => c.claim === selected) ?? null;
  const css = useMemo(() => highlightCss(chosen ? highlightOf(chosen) : null), [chosen]);
  useAdoptedCss(css);
  if (!plan || !live) return null;
  const move = (e: KeyboardEvent<HTMLButtonElement>, n: number) => {
    const to = e.key === 'ArrowDown' ? n + 1 : e.key === 'ArrowUp' ? n - 1 : e.key === 'Home' ? 1 : e.key === 'End' ? 5 : null;
    if (e.key === 'Escape') {
      selectClaim(null);
      e.preventDefault();
      return;
    }
    if (to === null) return;
    e.preventDefault();
    const next = list.current?.closest('.verdicts')?.querySelector<HTMLButtonElement>(`[data-testid="verdict-select-${Math.min(5, Math.max(1, to))}"]`);
    const folded = next?.closest('details');
    if (folded && !folded.open) folded.open = true; // a claim under "other claims on this run"
    next?.focus();
  };
  const progress = !live.ran
    ? 'before a run: what the setup allows'
    : live.iteration < live.total
      ? `so far: iteration ${live.iteration} of ${live.total}`
      : `after ${live.total} iterations`;
  const lesson = useApp((s) => (s.lesson ? currentLesson(s) : null));
  const row = (c: Claim, extra?: ReactNode) => {
    const n = c.claim as ClaimNumber;
    const on = selected === n;
    return (
      <li key={n} className={`verdict-row${on ? ' selected' : ''}${lesson?.claim === n ? ' lesson-own' : ''}`} data-testid={`verdict-claim-${n}`} data-verdict={verdictWord(c.verdict)}>
        <button
          type="button"
          className="verdict-select"
          data-testid={`verdict-select-${n}`}
          aria-pressed={on}
          aria-expanded={on}
          title={on ? 'Unselect (Escape)' : 'Show the evidence and highlight it in the charts'}
          onClick={() => selectClaim(on ? null : n)}
          onKeyDown={(e) => move(e, n)}
        >
          <span className="verdict-num">{n}</span>
          <span className="verdict-short" title={CLAIM_TEXT[n].short}>{CLAIM_TEXT[n].short}</span>
          <VerdictBadge verdict={c.verdict} />
        </button>
        {extra}
        <p className="verdict-reason" data-testid={`claim-${n}`} data-verdict={c.verdict}>
          <IsolatedLabels text={reasonOf(c)} labels={plan.algorithms.map((a) => a.label)} />
        </p>
        {n === 4 && c.parts?.[2] ? <OrderVerdict part={c.parts[2]} /> : null}
        {on && <Evidence c={c} plan={plan} />}
      </li>
    );
  };
  return (
    <section className={`card verdicts${large ? ' verdicts-large' : ''}${lesson ? ' verdicts-lesson' : ''}`} data-testid="verdicts" aria-labelledby="verdicts-heading" aria-busy={status === 'running'}>
      <div className="verdicts-head">
        <h2 id="verdicts-heading">{lesson ? `This lesson’s claim: claim ${lesson.claim}` : 'The paper’s claims, here'}</h2>
        <span className="muted-inline" data-testid="verdicts-progress">
          {progress} · rules v{live.rules}
        </span>
      </div>
      {lesson ? (
        <LessonVerdicts lesson={lesson} live={live} plan={plan} list={list} row={row} />
      ) : (
        <ol className="verdict-list" ref={list}>
          {live.claims.map((c) => row(c))}
        </ol>
      )}
      {selected === null && <p className="muted verdicts-hint">Select a verdict to see its evidence and highlight, in the charts, the algorithms and seeds it was decided on.</p>}
      {css && <span hidden data-testid="highlight-style" data-rules={css.split('\n').length} />}
    </section>
  );
}

/**
 * A lesson's verdicts: its own claim first and large (its part c beside it when the lesson is
 * about that part); the other claims folded under "other claims on this run", each saying whether
 * this experiment can test it. Before the run has data, no verdict: only what the lesson declares.
 */
function LessonVerdicts({ lesson, live, plan, list, row }: { lesson: Lesson; live: LiveClaims; plan: Plan; list: RefObject<HTMLOListElement | null>; row: (c: Claim, extra?: ReactNode) => ReactNode }) {
  const own = live.claims.find((c) => c.claim === lesson.claim);
  if (!live.ran || !own) {
    return (
      <p className="lesson-verdict-wait" data-testid="lesson-verdict-wait">
        The verdict on claim {lesson.claim} appears once the run has data; the lesson declares{' '}
        <VerdictBadge verdict={lesson.expect} />
        {lesson.part ? ` for part (${lesson.part})` : ''}.
      </p>
    );
  }
  const part = lesson.part ? lessonVerdict(lesson, live.claims) : null;
  const others = live.claims.filter((c) => c.claim !== lesson.claim);
  const builtFor = `${plan.exp.iterations} iterations, ${plan.exp.seedIndices.length} ${plan.exp.seedIndices.length === 1 ? 'seed' : 'seeds'}`;
  return (
    <ol className="verdict-list" ref={list}>
      {row(
        own,
        part ? (
          <p className="lesson-part-verdict" data-testid="lesson-part-verdict" data-verdict={verdictWord(part.verdict)}>
            Part ({lesson.part}), what this lesson is about: <VerdictBadge verdict={part.verdict} />
          </p>
        ) : null,
      )}
      <li className="other-claims-item">
        <details className="other-claims" data-testid="other-claims">
          <summary>Other claims on this run ({others.length})</summary>
          <ol className="verdict-list">
            {others.map((c) =>
              row(
                c,
                <p className="other-claim-note" data-testid={`other-claim-note-${c.claim}`} data-testable={c.verdict !== 'not testable'}>
                  {c.verdict === 'not testable'
                    ? `This experiment cannot test claim ${c.claim}.`
                    : `Not built for claim ${c.claim} (${builtFor}): read its verdict with that in mind.`}
                </p>,
              ),
            )}
          </ol>
        </details>
      </li>
    </ol>
  );
}

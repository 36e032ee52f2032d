import { LIMITS } from '../core/config/schema';
import { encodeLink, encodeLinkChecked, type EncodedLink, type LinkState } from '../core/config/link-codec';
import type { ScheduledChange } from '../core/run/changes';
import { executorTag, resultsHash, type ResultsHash } from '../core/metrics/results-hash';
import type { View } from '../core/config/view';
import type { BackendReport } from '../core/run/backend-report';
import { runsPerAlgorithm, type Live } from './live';
import type { Plan } from './plan';

// What a permalink of the page holds: the experiment as it started plus every learning-rate or
// clip change made while it ran, the chart choices, and optionally the results hash. Pure.

export interface ShareInput {
  draft: Record<string, unknown>;
  plan: Plan | null;
  live: Live | null;
  view: View;
  embed: boolean;
  classroom?: boolean;
  hide?: readonly string[];
  /** The lesson whose unedited experiment this is: the link names it (lesson=<id>) instead of its settings. */
  lesson?: string | null;
}

/**
 * The config that replays the current experiment: the one the run started from, with the
 * changes made while it ran appended to its `changes` (before scheduled ones at the same
 * iteration, the order the workers applied them). `exact` is false when they do not fit.
 */
export function shareConfig(s: ShareInput): { config: Record<string, unknown>; exact: boolean } {
  const live = s.live;
  if (!live) return { config: s.draft, exact: true };
  const start = live.startConfig;
  const scheduled = Array.isArray(start.changes) ? (start.changes as ScheduledChange[]) : [];
  const made = live.changes.filter((c) => !c.scheduled).map((c): ScheduledChange => ({ at: c.iteration, path: c.path, value: c.to }));
  if (made.length === 0) return { config: start, exact: true };
  if (scheduled.length + made.length > LIMITS.changes) return { config: start, exact: false };
  const changes = [...made, ...scheduled].sort((a, b) => a.at - b.at);
  return { config: { ...start, changes }, exact: true };
}

/** The hash of the results the page holds, once every run has finished; else null. */
export function pageResultsHash(plan: Plan, live: Live, backend: BackendReport | null): ResultsHash | null {
  const { exp } = plan;
  if (live.iteration < exp.iterations) return null;
  const n = runsPerAlgorithm(exp);
  const curves = exp.algorithms.map((_, a) => live.runs.slice(a * n, (a + 1) * n).map((r) => r.J));
  const by = executorTag(plan.choice.executor, plan.choice.executor === 'tensor' ? (backend?.backend ?? null) : null);
  return resultsHash(exp.algorithms.map((a) => a.id), curves, by);
}

function linkState(s: ShareInput, hash: ResultsHash | null): LinkState {
  const { config, exact } = shareConfig(s);
  const made = s.live?.changes.some((c) => !c.scheduled) ?? false;
  const lesson = s.lesson && !made ? s.lesson : null;
  return { config, view: s.view, hash: exact ? hash : null, embed: s.embed, exact, classroom: s.classroom ?? false, hide: s.hide ?? [], lesson };
}

/** The fragment (no '#') for the current page; with `hash` when given. Unchecked: the page writes shareLink's. */
export function shareFragment(s: ShareInput, hash: ResultsHash | null = null): string {
  return encodeLink(linkState(s, hash));
}

/** The fragment for the current page when it fits in a link the page opens again; else why not. */
export function shareLink(s: ShareInput, hash: ResultsHash | null = null): EncodedLink {
  return encodeLinkChecked(linkState(s, hash));
}

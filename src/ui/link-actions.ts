import { DEFAULT_CONFIG } from '../core/config/defaults';
import { memoLast } from './memo-last';
import { decodeLink } from '../core/config/link-codec';
import { importConfig, importEnv, MAX_IMPORT_BYTES, type Imported } from '../core/config/import-file';
import { explainMismatch } from '../core/metrics/results-hash';
import { OPENING_LESSON } from '../core/lessons/lessons';
import { DEFAULT_VIEW, type View } from '../core/config/view';
import { resetRun, startRun } from './session-actions';
import { pageResultsHash, shareLink, type ShareInput } from './share';
import { checkDraft, useApp, type AppState, type Draft } from './state';
import { closesDrawer } from './drawer-on-open';

// Opening links (at start-up and on Back/Forward), importing files, checking a link's results
// hash, and the link the page shares. Every outside value goes through decodeLink/import*,
// which validate with the config schema; a refusal leaves the page's experiment as it was.

const set = (partial: Partial<AppState>) => useApp.setState(partial);
const get = () => useApp.getState();

/** The draft a validated config loads as: the defaults, then its fields. */
export const draftOf = (config: Record<string, unknown>): Draft => ({ ...(structuredClone(DEFAULT_CONFIG) as Draft), ...structuredClone(config), version: 1 });

/**
 * Show a validated config (top-level defaults filled in), stopped at iteration 0. `lessonId`:
 * the config is that lesson's (the page shows its banner until the experiment is edited); any
 * other load closes the lesson and its tour. `extra` is set in the same store update, so the
 * address gets one history entry.
 */
export function loadExperiment(
  config: Record<string, unknown>,
  view: View = { metric: get().metric, x: get().xAxis },
  lessonId: string | null = null,
  extra: Partial<AppState> = {},
): void {
  resetRun();
  const draft = draftOf(config);
  const checked = checkDraft(draft);
  set({
    draft,
    ...checked,
    status: checked.plan ? 'idle' : 'error',
    total: checked.plan?.exp.iterations ?? 0,
    notice: null,
    metric: view.metric,
    xAxis: view.x,
    turnStep: null,
    lesson: lessonId ? { id: lessonId, draft } : null,
    tour: null,
    selectedClaim: null,
    ...extra,
  });
}

/**
 * Open a permalink (`source` says whether the page was just loaded or Back/Forward moved).
 * A link with a results hash runs at once and is checked when the run ends.
 */
export function openLink(text: string, source: 'startup' | 'history' | 'lesson'): boolean {
  const d = decodeLink(text);
  if (!d.ok) {
    const kept = source === 'startup' ? 'the default experiment' : 'the experiment it showed';
    set({ linkError: `This link cannot be opened: ${d.message}. ${d.future ? '' : 'Nothing from it was applied; '}the page keeps ${kept}.` });
    return false;
  }
  const { state } = d;
  if (d.empty && source === 'startup') return openLink(`v=1&lesson=${OPENING_LESSON}`, 'lesson'); // no experiment in the address: the opening story
  const page = state.lesson ? { page: 'explorer' as const } : {};
  // a lesson or a shared link opens on its charts: the settings drawer starts closed (the toggle opens it)
  const drawer = closesDrawer(text, source, Boolean(state.lesson)) ? { settingsOpen: false } : {};
  loadExperiment(state.config, state.view, state.lesson ?? null, {
    embed: state.embed,
    classroom: state.classroom ?? false,
    hidden: state.hide ?? [],
    linkError: null,
    reproduce: null,
    ...page,
    ...drawer,
  });
  const draft = get().draft;
  if (!state.exact)
    set({ reproduce: { expected: null, draft, verdict: 'inexact', text: 'Not reproducible: the run this link comes from had more learning-rate or clip changes than a link can carry; it replays the settings the link holds, without the changes it could not carry.' } });
  else if (state.hash) {
    set({ reproduce: { expected: state.hash, draft, verdict: 'pending', text: `Rerunning to check the results hash ${state.hash.digest} (${state.hash.by}, version ${state.hash.app})…` } });
    startRun();
  }
  return true;
}

/** After a run ends, compare its hash with the link's. Called on every store change; cheap when there is nothing to do. */
export function checkReproduced(s: AppState): void {
  const r = s.reproduce;
  if (!r) return;
  if (s.draft !== r.draft) {
    set({ reproduce: null }); // the experiment was edited: the link's hash no longer applies
    return;
  }
  if (r.verdict !== 'pending' || s.status !== 'done' || !s.plan || !s.live || !r.expected) return;
  const got = pageResultsHash(s.plan, s.live, s.backend);
  if (!got) return;
  const why = explainMismatch(r.expected, got);
  set({
    reproduce: why
      ? { ...r, verdict: 'differs', text: `Not reproduced: ${why}.` }
      : { ...r, verdict: 'reproduced', text: `reproduced ✓ — results hash ${got.digest} (${got.by}, version ${got.app}) matches the link` },
  });
}

/** True when a lesson was loaded and its experiment has been edited since. */
export function lessonEdited(s: AppState): boolean {
  if (!s.lesson || s.draft === s.lesson.draft) return false;
  return differs({ draft: s.draft, lesson: s.lesson.draft });
}
const differs = memoLast(({ draft, lesson }: { draft: Draft; lesson: Draft }) => [draft, lesson], ({ draft, lesson }) => JSON.stringify(draft) !== JSON.stringify(lesson));

/** What a link of the page is built from (share.ts), read from the store. `plain`: the explorer's own link (no embed, classroom or hidden parts). */
export function shareInputOf(s: AppState, plain = false): ShareInput {
  return {
    draft: s.draft,
    plan: s.plan,
    live: s.live,
    view: { metric: s.metric, x: s.xAxis },
    embed: plain ? false : s.embed,
    classroom: plain ? false : s.classroom,
    hide: plain ? [] : s.hidden,
    lesson: s.lesson && !lessonEdited(s) ? s.lesson.id : null,
  };
}

/** The page's address without a fragment. */
export const pageBase = () => (typeof location === 'undefined' ? '' : location.href.split('#')[0]);

/**
 * The link to this page's experiment; with its results hash when asked and the run is complete and
 * replayable. `plain`: without embed, classroom and hide. An experiment too large for a link has
 * none: `ok` false with the reason (the page says "use Export config").
 */
export function currentLink(withHash: boolean, plain = false): { ok: true; url: string } | { ok: false; message: string } {
  const s = get();
  const input = { ...shareInputOf(s, plain), embed: false };
  const hash = withHash && s.status === 'done' && s.plan && s.live ? pageResultsHash(s.plan, s.live, s.backend) : null;
  const link = shareLink(input, hash);
  return link.ok ? { ok: true, url: `${pageBase()}#${link.fragment}` } : link;
}

/** currentLink's address, or the page without an experiment when there is none (for "open the full explorer"). */
export const currentHref = (plain = false): string => {
  const link = currentLink(false, plain);
  return link.ok ? link.url : pageBase();
};

/** Why "include the results hash" is unavailable now, or null. */
export function hashUnavailable(s: AppState): string | null {
  if (s.status !== 'done' || !s.live) return 'available when a run has finished';
  return null;
}

async function readFile(file: File): Promise<string | null> {
  if (file.size > MAX_IMPORT_BYTES) {
    set({ linkError: `${file.name} was not loaded: it is ${file.size.toLocaleString('en-US')} bytes; the limit is ${MAX_IMPORT_BYTES.toLocaleString('en-US')}.` });
    return null;
  }
  return file.text();
}

function applyImport(r: Imported, name: string, what: string): void {
  if (!r.ok) {
    set({ linkError: `The ${what} file ${name} was not loaded: ${r.message}. The page keeps its experiment.` });
    return;
  }
  loadExperiment(r.config);
  set({ linkError: null, reproduce: null, notice: `Loaded the ${what} from ${name}; press Run.` });
}

export async function importConfigFile(file: File): Promise<void> {
  const text = await readFile(file);
  if (text !== null) applyImport(importConfig(text), file.name, 'config');
}

export async function importEnvFile(file: File): Promise<void> {
  const text = await readFile(file);
  if (text !== null) applyImport(importEnv(text, get().draft), file.name, 'environment');
}

/** Close the link/import error banner, keeping the page's experiment; the address shows it again. */
export function dismissLinkError(): void {
  set({ linkError: null });
  showInAddress();
}

/** Load the default experiment (offered when a link was refused). */
export function loadDefaults(): void {
  loadExperiment(structuredClone(DEFAULT_CONFIG) as Draft, DEFAULT_VIEW);
  set({ linkError: null, reproduce: null });
  showInAddress();
}

function showInAddress(): void {
  if (typeof history === 'undefined') return;
  const link = shareLink(shareInputOf(get()));
  history.replaceState(history.state, '', link.ok ? `#${link.fragment}` : pageBase());
}

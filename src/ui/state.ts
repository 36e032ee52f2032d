import { initialSweepState, type SweepState } from './sweep-state';
import { create } from 'zustand';
import type { BackendReport } from '../core/run/backend-report';
import type { ResultsHash } from '../core/metrics/results-hash';
import type { Live, MetricName, TurnStep, XAxis } from './live';
import { DEFAULT_CONFIG } from '../core/config/defaults';
import { DEFAULT_VIEW } from '../core/config/view';
import { ConfigError } from '../core/config/fields';
import { browserThreadsFor } from '../worker/browser-session';
import { controlPathOf, validateDraft } from './draft';
import { planExperiment, type Plan } from './plan';
import type { ClaimNumber } from './claims-text';
import type { TourState } from './tour';
import type { PolicyTreeView } from '../core/env/policy-tree';
import type { TreeRun } from './tree-state';
import type { SeedDrop } from './charts/largest-drop';
import type { GpuKind } from '../core/run/choose';

// The page's one store. Controls edit `draft` (a config object: the same JSON the CLI and
// permalinks read); every edit is validated through resolveConfig and yields `plan` when valid.
// Streamed results live in `live` (mutable typed arrays); `version` changes when they grew.

export type Status = 'idle' | 'running' | 'paused' | 'done' | 'error';
export type Theme = 'system' | 'light' | 'dark';
/** The page's views: the explorer, the claims lab (five claims, their lessons), and sweeps (phase diagrams). */
export type PageView = 'explorer' | 'claims' | 'sweep';
/** A config being edited: numbers the user typed that are not numbers stay as text (and are refused by name). */
export type Draft = Record<string, unknown>;

export interface AppState {
  draft: Draft;
  /** Messages by config path ("seeds", "env.turns", "algorithms[2].clip", "env.rewards[0][3]"). */
  fieldErrors: Record<string, string>;
  /** A config error no control owns (shown in the error banner). */
  configError: string | null;
  /** The plan of the last valid draft. */
  plan: Plan | null;
  status: Status;
  /** Iterations every run has completed. */
  iteration: number;
  total: number;
  live: Live | null;
  /** Bumped (at most once per frame) whenever `live` changed. */
  version: number;
  turnStep: TurnStep | null;
  backend: BackendReport | null;
  /** Iterations per second of the current run (null before it has a measurement). */
  itPerSec: number | null;
  /** Seconds the current run has computed (pauses excluded). */
  elapsed: number;
  /** Says what the last change did: applied hot, or restarted the experiment. */
  notice: string | null;
  xAxis: XAxis;
  metric: MetricName;
  /** Iterations per second the run is held to; 0 = as fast as it goes. */
  speed: number;
  theme: Theme;
  helpOpen: boolean;
  error: string | null;
  /** Opened with embed=1: charts and a minimal transport only. */
  embed: boolean;
  /** Why the link the page was opened with (or a file imported) was refused; the page kept its experiment. */
  linkError: string | null;
  /** Why the current experiment has no link (too large for one), or null; the address then holds none. */
  linkTooLarge: string | null;
  /** Checking a link's results hash against this page's run. */
  reproduce: Reproduce | null;
  /** Explorer, Claims or Sweep (the header's tabs). */
  page: PageView;
  /** The Sweep view: its axes, how it draws, the sweep that ran (sweep-state.ts). */
  sweep: SweepState;
  /** The lesson loaded (src/core/lessons) and the draft it loaded: an edit of the draft makes it "edited". */
  lesson: { id: string; draft: Draft } | null;
  /** The guided tour of the loaded lesson, while it is open. */
  tour: TourState | null;
  /** The claim whose verdict is selected in the verdict panel: the charts highlight what it was decided on. */
  selectedClaim: ClaimNumber | null;
  /** The transport command pressed last (the tour says what it did). */
  lastCommand: 'run' | 'pause' | 'step' | 'step-turn' | 'reset' | null;
  /** Opened with classroom=1: the presenter layout (large type, transport, return chart, verdicts). */
  classroom: boolean;
  /** Controls and parts of the page the link hides (hide=…). */
  hidden: readonly string[];
  /** The settings drawer (the sidebar) is open: by default on screens wide enough to keep the charts beside it. */
  settingsOpen: boolean;
  /** Algorithm ids whose lines the legend has hidden (every chart leaves them out). */
  hiddenLines: readonly string[];
  /** The algorithm whose legend entry the pointer is on: its lines stand out, the others fade. */
  hoverLine: string | null;
  /** The runs whose policy tree is drawn (null: the default, tree-state.ts) and the context shown. */
  treeRuns: TreeRun[] | null;
  treeContext: number;
  /** The trees the workers sent for those runs (during Step one turn: after the latest turn step). */
  policyTrees: PolicyTreeView[];
  /** The tree's nodes also show Q, V* and the advantage the algorithm fed them. */
  treeDetails: boolean;
  /** The seed "show the seed with the largest drop" picked: drawn dark in the seed charts, its tree shown. */
  focusSeed: SeedDrop | null;
  /** The WebGPU adapter the page found at start-up (gpu-probe.ts; null: none, or not answered yet): every plan is made with it. */
  gpuKind: GpuKind;
}

export interface Reproduce {
  /** The hash the link carried (null: the link carried none, only `exact=0`). */
  expected: ResultsHash | null;
  /** The draft the link loaded: any later edit ends the check. */
  draft: Draft;
  verdict: 'pending' | 'reproduced' | 'differs' | 'inexact';
  text: string;
}

export const useApp = create<AppState>()(() => ({}) as AppState);

// ---------------------------------------------------------------------------------------------
// Validation: the draft goes through the schema (every problem at once, beside its control), then resolveConfig.

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

interface Checked {
  plan: Plan | null;
  fieldErrors: Record<string, string>;
  configError: string | null;
}

/** `gpuKind`: the store's by default (before the store holds its first state: none). */
export function checkDraft(draft: Draft, gpuKind: GpuKind = useApp.getState().gpuKind ?? null): Checked {
  const fieldErrors = validateDraft(draft);
  if (Object.keys(fieldErrors).length) return { plan: null, fieldErrors, configError: null };
  try {
    return { plan: planExperiment(draft, browserThreadsFor, gpuKind), fieldErrors: {}, configError: null };
  } catch (e) {
    const control = e instanceof ConfigError ? controlPathOf(e.path, draft) : null;
    if (control) return { plan: null, fieldErrors: { [control]: message(e) }, configError: null };
    return { plan: null, fieldErrors: {}, configError: `Invalid settings: ${message(e)}` };
  }
}

/** True when the controls hold a valid experiment. */
export const isValid = (s: AppState) => s.configError === null && Object.keys(s.fieldErrors).length === 0 && s.plan !== null;

function readTheme(): Theme {
  try {
    const t = globalThis.localStorage?.getItem('seeupo-theme');
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

/** Narrower windows (phones) open with the settings drawer closed, so Run and the return chart come first. */
export const DRAWER_OPEN_FROM = 900;

function initialState(): AppState {
  const draft = structuredClone(DEFAULT_CONFIG) as Draft;
  const checked = checkDraft(draft);
  return {
    draft,
    ...checked,
    status: checked.plan ? 'idle' : 'error',
    iteration: 0,
    total: checked.plan?.exp.iterations ?? 0,
    live: null,
    version: 0,
    turnStep: null,
    backend: null,
    itPerSec: null,
    elapsed: 0,
    notice: null,
    xAxis: DEFAULT_VIEW.x,
    metric: DEFAULT_VIEW.metric,
    speed: 0,
    theme: readTheme(),
    helpOpen: false,
    embed: false,
    linkError: null,
    linkTooLarge: null,
    reproduce: null,
    page: 'explorer',
    sweep: initialSweepState(),
    lesson: null,
    tour: null,
    selectedClaim: null,
    lastCommand: null,
    classroom: false,
    hidden: [],
    hiddenLines: [],
    hoverLine: null,
    treeRuns: null,
    treeContext: 0,
    policyTrees: [],
    treeDetails: false,
    focusSeed: null,
    gpuKind: null,
    settingsOpen: typeof innerWidth !== 'number' || innerWidth >= DRAWER_OPEN_FROM,
    error: checked.plan ? null : `The default experiment is invalid: ${checked.configError ?? JSON.stringify(checked.fieldErrors)}`,
  };
}

useApp.setState(initialState(), true);

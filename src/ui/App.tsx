import { useEffect, useState } from 'react';
import { Header } from './components/Header';
import { ErrorBanner } from './components/ErrorBanner';
import { Transport } from './components/Transport';
import { BackendBadge } from './components/BackendBadge';
import { SummaryTable } from './components/SummaryTable';
import { Caption } from './components/Caption';
import { ExplainPanel } from './components/ExplainPanel';
import { ControlsPanel } from './components/controls/ControlsPanel';
import { ChartsPanel } from './components/charts/ChartsPanel';
import { ReturnChart } from './components/charts/ReturnChart';
import { HelpDialog } from './components/HelpDialog';
import { ReproduceStatus, ShareBar } from './components/ShareBar';
import { ClaimsView } from './components/ClaimsView';
import { SweepView } from './components/sweep/SweepView';
import { LessonBanner } from './components/LessonBanner';
import { Tour } from './components/Tour';
import { VerdictPanel } from './components/VerdictPanel';
import { QuickSwitches } from './components/QuickSwitches';
import { currentHref } from './link-actions';
import { onShortcut } from './keyboard';
import { useHidden } from './hide';
import { useApp } from './store';
import './components/charts/charts.css';

/** Applies the chosen theme to <html> (system: follow prefers-color-scheme). */
function useTheme(): void {
  const theme = useApp((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}

export function App() {
  useTheme();
  useEffect(() => {
    window.addEventListener('keydown', onShortcut);
    return () => window.removeEventListener('keydown', onShortcut);
  }, []);
  const embed = useApp((s) => s.embed);
  const classroom = useApp((s) => s.classroom);
  const page = useApp((s) => s.page);
  const settingsOpen = useApp((s) => s.settingsOpen);
  const hide = {
    controls: useHidden('controls'),
    summary: useHidden('summary'),
    share: useHidden('share'),
    backend: useHidden('backend'),
    explain: useHidden('explain'),
    caption: useHidden('caption'),
  };
  if (embed) return <EmbedApp />;
  if (classroom) return <ClassroomApp />;
  return (
    <div className="app">
      <Header />
      <ErrorBanner />
      {page === 'claims' ? (
        <ClaimsView />
      ) : page === 'sweep' ? (
        <SweepView />
      ) : (
        <div className={`layout${hide.controls || !settingsOpen ? ' no-sidebar' : ''}`}>
          {!hide.controls && settingsOpen && (
            <aside className="sidebar" id="settings-drawer" aria-label="Experiment settings">
              <ControlsPanel />
            </aside>
          )}
          <main className="main">
            <LessonBanner />
            <Transport />
            <QuickSwitches />
            <ReproduceStatus />
            <ChartsPanel caption={hide.caption ? null : <Caption />} axisPicker={false} />
            {!hide.summary && <SummaryTable />}
            {!hide.share && <ShareBar />}
            {!hide.backend && <BackendBadge />}
            {!hide.explain && <ExplainPanel />}
          </main>
        </div>
      )}
      {page === 'explorer' && <Tour />}
      <HelpDialog />
    </div>
  );
}

/** embed=1: the charts and a minimal transport, for slides and course pages. */
function EmbedApp() {
  useApp((s) => s.draft); // the full-explorer link follows the experiment
  return (
    <div className="app embed" data-testid="embed">
      <ErrorBanner />
      <div className="embed-bar">
        <Transport minimal />
        <a href={currentHref(true)} target="_blank" rel="noopener" data-testid="open-full">
          Open the full explorer ↗
        </a>
      </div>
      <ReproduceStatus />
      <ChartsPanel />
    </div>
  );
}

/** The return chart's height in the classroom layout: what the window leaves below the bar and the transport. */
function useClassroomHeight(): number {
  const fit = () => Math.round(Math.max(260, Math.min(720, (typeof innerHeight === 'number' ? innerHeight : 800) - 330)));
  const [h, setH] = useState(fit);
  useEffect(() => {
    const on = () => setH(fit());
    addEventListener('resize', on);
    return () => removeEventListener('resize', on);
  }, []);
  return h;
}

/**
 * classroom=1: the presenter layout (large type): the transport, the return chart and the
 * verdicts, the lesson's title and tour when one is loaded; `hide=…` hides transport buttons too.
 */
function ClassroomApp() {
  useApp((s) => s.draft); // the full-explorer link follows the experiment
  const envTitle = useApp((s) => s.plan?.envTitle);
  const hasLesson = useApp((s) => s.lesson !== null);
  const hideVerdicts = useHidden('verdicts');
  const height = useClassroomHeight();
  return (
    <div className="app classroom" data-testid="classroom">
      <div className="classroom-bar">
        <span className="classroom-title">SeeUPO explorer</span>
        {hasLesson ? <LessonBanner compact /> : <span className="classroom-env">{envTitle ?? 'custom environment'}</span>}
        <a href={currentHref(true)} target="_blank" rel="noopener" data-testid="open-full">
          Full explorer ↗
        </a>
      </div>
      <ErrorBanner />
      <Transport />
      <ReproduceStatus />
      <div className={`classroom-charts charts-top${hideVerdicts ? ' alone' : ''}`} style={{ ['--classroom-chart' as string]: `${height}px` }}>
        <ReturnChart height={height} />
        {!hideVerdicts && <VerdictPanel large />}
      </div>
      <Tour />
      <HelpDialog />
    </div>
  );
}

import { useEffect } from 'react';
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
import { ClassroomApp } from './components/Classroom';
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

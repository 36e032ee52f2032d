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
import { HelpDialog } from './components/HelpDialog';
import { ReproduceStatus, ShareBar } from './components/ShareBar';
import { currentLink } from './link-actions';
import { onShortcut } from './keyboard';
import { useApp } from './store';

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
  if (embed) return <EmbedApp />;
  return (
    <div className="app">
      <Header />
      <ErrorBanner />
      <div className="layout">
        <aside className="sidebar" aria-label="Experiment settings">
          <ControlsPanel />
        </aside>
        <main className="main">
          <Transport />
          <ReproduceStatus />
          <ShareBar />
          <BackendBadge />
          <Caption />
          <ChartsPanel />
          <SummaryTable />
          <ExplainPanel />
        </main>
      </div>
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
        <a href={currentLink(false)} target="_blank" rel="noopener" data-testid="open-full">
          Open the full explorer ↗
        </a>
      </div>
      <ReproduceStatus />
      <ChartsPanel />
    </div>
  );
}

import { setPage, setSettingsOpen, setTheme, toggleHelp, useApp, type PageView, type Theme } from '../store';
import { useHidden } from '../hide';

const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_TEXT: Record<Theme, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };
const PAGES: [PageView, string, string][] = [
  ['explorer', 'Explorer', 'Train the algorithms and watch the charts'],
  ['claims', 'Claims', 'The paper’s five claims, their verdicts here, and lessons that show them'],
  ['sweep', 'Sweep', 'Phase diagrams: the experiment over a grid of one or two settings'],
];

export function Header() {
  const theme = useApp((s) => s.theme);
  const page = useApp((s) => s.page);
  const settingsOpen = useApp((s) => s.settingsOpen);
  const noControls = useHidden('controls');
  return (
    <header className="header">
      <div className="header-row">
        <div className="header-title">
          <h1>SeeUPO explorer</h1>
          <nav className="page-tabs" aria-label="Views">
            {PAGES.map(([p, text, title]) => (
              <button key={p} type="button" data-testid={`tab-${p}`} className={page === p ? 'current' : undefined} aria-current={page === p ? 'page' : undefined}
                title={title} onClick={() => setPage(p)}>
                {text}
              </button>
            ))}
          </nav>
        </div>
        <div className="header-buttons">
          {page === 'explorer' && !noControls && (
            <button type="button" data-testid="settings-toggle" aria-expanded={settingsOpen} aria-controls="settings-drawer"
              className={settingsOpen ? 'on' : undefined} onClick={() => setSettingsOpen(!settingsOpen)}
              title={settingsOpen ? 'Close the settings (more room for the charts)' : 'Open the settings: environment, policy, algorithms'}>
              ⚙ Settings
            </button>
          )}
          <button type="button" data-testid="theme-toggle" onClick={() => setTheme(NEXT[theme])} aria-label={`${THEME_TEXT[theme]} (click to change)`}>
            {THEME_TEXT[theme]}
          </button>
          <button type="button" data-testid="help-button" onClick={() => toggleHelp(true)} aria-label="Keyboard shortcuts (?)">
            ?
          </button>
        </div>
      </div>
      <p className="tagline" title="GRPO, PPO, REINFORCE and SeeUPO train side by side on a small multi-turn task, in your browser. Every curve is the engine’s exact expected return; every sentence below the buttons is generated from the numbers.">
        GRPO, PPO, REINFORCE and SeeUPO train side by side on a small multi-turn task, in your browser. Every curve is
        the engine’s exact expected return; every sentence below the buttons is generated from the numbers.
      </p>
    </header>
  );
}

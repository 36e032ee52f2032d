import { setTheme, toggleHelp, useApp, type Theme } from '../store';

const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_TEXT: Record<Theme, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

export function Header() {
  const theme = useApp((s) => s.theme);
  return (
    <header className="header">
      <div className="header-row">
        <h1>SeeUPO explorer</h1>
        <div className="header-buttons">
          <button type="button" data-testid="theme-toggle" onClick={() => setTheme(NEXT[theme])} aria-label={`${THEME_TEXT[theme]} (click to change)`}>
            {THEME_TEXT[theme]}
          </button>
          <button type="button" data-testid="help-button" onClick={() => toggleHelp(true)} aria-label="Keyboard shortcuts (?)">
            ?
          </button>
        </div>
      </div>
      <p className="tagline">
        GRPO, PPO, REINFORCE and SeeUPO train side by side on a small multi-turn task, in your browser. Every curve is
        the engine’s exact expected return; every sentence below the buttons is generated from the numbers.
      </p>
    </header>
  );
}

import { dismissLinkError, useApp, loadDefaults } from '../store';

/** A refused link or file (with a way back to the page's experiment), or an error of the page itself. */
export function ErrorBanner() {
  const linkError = useApp((s) => s.linkError);
  const error = useApp((s) => s.error ?? s.configError);
  if (!linkError && !error) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      {linkError && (
        <p className="banner-line">
          <span data-testid="link-error">{linkError}</span>{' '}
          <button type="button" data-testid="use-defaults" onClick={loadDefaults}>
            Use the defaults
          </button>{' '}
          <button type="button" data-testid="dismiss-error" onClick={dismissLinkError}>
            Dismiss
          </button>
        </p>
      )}
      {error && <p className="banner-line">{error}</p>}
    </div>
  );
}

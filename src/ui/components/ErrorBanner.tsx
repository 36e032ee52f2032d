import { useApp } from '../store';

export function ErrorBanner() {
  const error = useApp((s) => s.error ?? s.configError);
  if (!error) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      {error}
    </div>
  );
}

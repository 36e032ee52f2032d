import type { ReactNode } from 'react';
import { isValid, useApp } from '../../store';
import { EnvControls } from './EnvControls';
import { PolicyControls } from './PolicyControls';
import { AlgorithmList } from './AlgorithmList';
import './controls.css';
import { useHidden } from '../../hide';

// The experiment's settings, generated from the config registry. Every change goes through
// validateDraft and resolveConfig (the store); lr and clip apply live, the rest restarts a run.

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  if (useHidden(id)) return null; // hide=env, policy or algorithms in the link
  return (
    <section className="ctl-section" aria-labelledby={`ctl-h-${id}`} data-testid={`controls-${id}`}>
      <h3 id={`ctl-h-${id}`}>{title}</h3>
      {children}
    </section>
  );
}

/** resolveConfig's warnings for the current settings (fields an algorithm's rule ignores). */
function Warnings() {
  const warnings = useApp((s) => s.plan?.exp.warnings);
  const valid = useApp(isValid);
  if (!valid || !warnings || warnings.length === 0) return null;
  return (
    <ul className="config-warnings" data-testid="config-warnings" aria-label="Ignored fields">
      {warnings.map((w) => (
        <li key={w}>{w}</li>
      ))}
    </ul>
  );
}

export function ControlsPanel() {
  return (
    <div className="controls-panel card" aria-label="Experiment settings">
      <Section id="env" title="Environment">
        <EnvControls />
      </Section>
      <Section id="policy" title="Policy & training">
        <PolicyControls />
      </Section>
      <Section id="algorithms" title="Algorithms">
        <AlgorithmList />
      </Section>
      <Warnings />
    </div>
  );
}

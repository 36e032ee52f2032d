import { useMemo } from 'react';
import { explainAlgorithm, introText } from '../explain-text';
import { useApp } from '../store';
import './summary.css';

/** "What am I looking at?": the task, J and J*, the curves, what to look for; then one entry per algorithm of the plan. */
export function ExplainPanel() {
  const plan = useApp((s) => s.plan);
  const text = useMemo(
    () =>
      plan
        ? {
            intro: introText(plan.exp, plan.Jstar),
            algorithms: plan.exp.algorithms.map((a, i) => ({ ...explainAlgorithm(a, plan.exp), label: plan.algorithms[i]?.label ?? a.id, color: plan.algorithms[i]?.color })),
          }
        : null,
    [plan],
  );
  if (!text) return null;
  return (
    <section className="card explain" data-testid="explain">
      <details className="explain-main">
        <summary>
          <h2>What am I looking at?</h2>
        </summary>
        <p data-testid="explain-intro">{text.intro}</p>
        <h3>The algorithms</h3>
        <div className="explain-algorithms">
          {text.algorithms.map((a) => (
            <details key={a.id} className="explain-algorithm" data-algorithm={a.id}>
              <summary>
                {a.color && <span className="swatch" style={{ background: a.color }} aria-hidden="true" />}
                {a.label}
              </summary>
              <p>{a.what}</p>
              <pre className="explain-formula">{a.formula.join('\n')}</pre>
              <p className="explain-claim">{a.claim}</p>
              {a.edited && <p className="muted">{a.edited}</p>}
            </details>
          ))}
        </div>
      </details>
    </section>
  );
}

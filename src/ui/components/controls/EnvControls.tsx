import { useState } from 'react';
import { ENV_PRESETS } from '../../../core/env/presets';
import type { Noise } from '../../../core/env/types';
import { replaceDraft, setDraftValue, useApp } from '../../store';
import { getPath, setEnvPreset, toCustomEnv } from '../../draft';
import { envControls, envPresetOf, isCustomEnv, type ControlDef } from '../../controls/registry';
import { Field } from './Field';
import { RewardTableEditor } from './RewardTableEditor';

// The environment: a named preset (with its title, description and allowed sizes) or a custom
// reward table; then B, reward noise and γ.

const CUSTOM = '__custom';

const noiseText = (n: readonly Noise[]): string => {
  const one = (x: Noise) => (x.kind === 'gaussian' ? `gaussian σ ${x.sigma}` : x.kind);
  const parts = n.map(one);
  return parts.every((p) => p === parts[0]) ? parts[0]! : parts.map((p, x) => `context ${x}: ${p}`).join(', ');
};

export function EnvControls() {
  const draft = useApp((s) => s.draft);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const defs = envControls(draft);
  const byPath = (p: string) => defs.find((d) => d.path === p);
  const preset = envPresetOf(draft);
  const custom = isCustomEnv(draft);
  const info = preset ? ENV_PRESETS[preset]! : null;
  // the description of what is loaded, from its actual sizes (the plan's when the draft is valid)
  const planned = useApp((s) => s.plan?.envDescription ?? null);
  const sizeOf = (k: 'turns' | 'vocab' | 'tokensPerTurn') => {
    const v = getPath(draft, `env.${k}`);
    return typeof v === 'number' ? v : (info?.defaults[k] ?? 1);
  };
  const described = planned ?? (info ? info.describe({ turns: sizeOf('turns'), vocab: sizeOf('vocab'), tokensPerTurn: sizeOf('tokensPerTurn') }) : '');

  const choose = (v: unknown) => {
    const r = v === CUSTOM ? toCustomEnv(draft) : setEnvPreset(draft, String(v));
    setSwitchError(r.ok ? null : r.error);
    if (r.ok) replaceDraft(r.draft);
  };

  const setNoise = (v: unknown) => {
    if (v === undefined || v === '') return setDraftValue('env.noise', undefined);
    if (v === 'gaussian') {
      const sigma = getPath(draft, 'env.noise.sigma');
      return setDraftValue('env.noise', { kind: 'gaussian', sigma: sigma ?? 0.1 });
    }
    setDraftValue('env.noise', { kind: v });
  };
  const noise = getPath(draft, 'env.noise');
  const noiseLead: [string, string][] = [];
  if (noise === undefined && info) noiseLead.push(['', `Preset default (${noiseText(info.noise)})`]);
  else if (noise === undefined) noiseLead.push(['', 'None (default)']);
  else if (Array.isArray(noise)) noiseLead.push(['', 'Per context (from the config)']);
  else if (info) noiseLead.push(['', `Preset default (${noiseText(info.noise)})`]);

  const sizeField = (d: ControlDef | undefined) => {
    if (!d || !info) return d && <Field key={d.path} def={d} />;
    const k = d.path.slice(4) as 'turns' | 'tokensPerTurn' | 'vocab';
    const r = info.allowed[k];
    const fixed = r.min === r.max && getPath(draft, d.path) === undefined;
    return <Field key={d.path} def={d} disabledReason={fixed ? `preset "${info.name}" fixes it at ${r.min}` : undefined} />;
  };

  return (
    <div className="ctl-section-body">
      <div className="ctl-grid">
        <Field def={byPath('env.preset')!} onValue={choose} emptyValue={custom ? CUSTOM : ''} trailingOptions={[[CUSTOM, 'Custom table']]} />
      </div>
      {switchError && (
        <p className="field-error" role="alert" data-testid="env-switch-error">{switchError}</p>
      )}
      {info && (
        <div className="env-info" data-testid="env-info">
          <strong>{info.title}</strong>
          <p data-testid="env-description">{described}</p>
        </div>
      )}
      {custom ? (
        <RewardTableEditor />
      ) : (
        <div className="ctl-grid">{(['env.turns', 'env.tokensPerTurn', 'env.vocab'] as const).map((p) => sizeField(byPath(p)))}</div>
      )}
      <div className="ctl-grid">
        <Field def={byPath('env.contextsPerBatch')!} />
        <Field def={byPath('env.noise.kind')!} onValue={setNoise} leadingOptions={noiseLead} emptyValue="" />
        {byPath('env.noise.sigma') && <Field def={byPath('env.noise.sigma')!} />}
        <Field def={byPath('env.gamma')!} />
      </div>
    </div>
  );
}

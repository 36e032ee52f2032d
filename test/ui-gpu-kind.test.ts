import { describe, expect, it } from 'vitest';
import { planExperiment } from '../src/ui/plan';
import { checkDraft, useApp } from '../src/ui/state';

// The WebGPU adapter the page found is state of the store (gpuKind), not of the plan module: every
// plan is made with the store's answer, so a plan made before the probe answered differs from one
// made after it, and nothing else remembers the adapter.

// 9 algorithms × 256 seeds = 2,304 runs: the size from which `auto` takes a hardware adapter
const LARGE = { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 5, seeds: 256 };

describe('gpuKind: the adapter the page found, kept in the store', () => {
  it('planExperiment chooses by the adapter it is given', () => {
    expect(planExperiment(LARGE, 1).choice.executor).toBe('cpu');
    expect(planExperiment(LARGE, 1, 'hardware').choice.executor).toBe('webgpu');
    const software = planExperiment(LARGE, 1, 'software').choice;
    expect(software.executor).toBe('cpu');
    expect(software.reason).toContain('software one');
  });

  it('checkDraft plans with the store’s adapter; the store starts with none', () => {
    expect(useApp.getState().gpuKind).toBeNull();
    expect(checkDraft(LARGE).plan!.choice.executor).toBe('cpu');
    useApp.setState({ gpuKind: 'hardware' });
    try {
      expect(checkDraft(LARGE).plan!.choice.executor).toBe('webgpu');
      expect(checkDraft(LARGE, null).plan!.choice.executor).toBe('cpu');
    } finally {
      useApp.setState({ gpuKind: null });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { fitGroupLabel, groupLabel, identicalGroups, spreadLabels } from '../src/ui/charts/groups';

// Identical curves labelled as a group on the return chart (the opening lesson: eight lines at 0.30).

const line = (id: string, values: (number | null)[]) => ({ id, label: id.toUpperCase(), color: '#000', points: values.map((mean, x) => ({ x, mean })) });

describe('identical curves', () => {
  it('groups curves equal within tol at every point, in order of first appearance', () => {
    const g = identicalGroups([line('a', [0.1, 0.3, 0.3]), line('b', [0.1, 1, 1]), line('c', [0.1, 0.3 + 1e-5, 0.3]), line('d', [0.1, 0.3, 0.31])], 1e-3);
    expect(g.map((x) => x.ids)).toEqual([['a', 'c'], ['b'], ['d']]);
    expect(g[0].end).toEqual({ x: 2, y: 0.3 });
  });
  it('a missing value matches only a missing value; lengths must agree', () => {
    expect(identicalGroups([line('a', [0.1, null]), line('b', [0.1, 0.1])], 1).map((x) => x.ids)).toEqual([['a'], ['b']]);
    expect(identicalGroups([line('a', [0.1, null]), line('b', [0.1, null])], 0).map((x) => x.ids)).toEqual([['a', 'b']]);
    expect(identicalGroups([line('a', [0.1]), line('b', [0.1, 0.1])], 1).map((x) => x.ids)).toEqual([['a'], ['b']]);
    expect(identicalGroups([line('a', [null, null])], 0)[0].end).toBeNull();
  });
  it('the group label names the count, the value and the display labels', () => {
    expect(groupLabel(['GRPO', 'GSPO', 'PPO+GRAE', 'REINFORCE'], '0.30')).toBe('4 algorithms at 0.30: GRPO, GSPO, PPO+GRAE, …');
    expect(groupLabel(['GRPO', 'GSPO'], '0.30')).toBe('2 algorithms at 0.30: GRPO, GSPO');
    expect(groupLabel(['SeeUPO'], '1.00')).toBe('SeeUPO');
  });
  it('a label too wide for the room left of the line\'s end names fewer algorithms, then none, then shortens', () => {
    const w = (t: string) => t.length * 10; // 10 px a character
    const eight = ['GRPO', 'GSPO', 'PPO+GRAE', 'PPO+GAE', 'REINFORCE', 'RLOO', 'SeeUPO (forward)', 'SeeUPO (random)'];
    expect(fitGroupLabel(eight, '0.30', 1000, w)).toBe('8 algorithms at 0.30: GRPO, GSPO, PPO+GRAE, …');
    expect(fitGroupLabel(eight, '0.30', 300, w)).toBe('8 algorithms at 0.30: GRPO, …');
    expect(fitGroupLabel(eight, '0.30', 250, w)).toBe('8 algorithms at 0.30');
    expect(fitGroupLabel(eight, '0.30', 100, w)).toBe('8 at 0.30');
    expect(fitGroupLabel(eight, '0.30', 10, w)).toBeNull(); // nothing fits
    expect(fitGroupLabel(['SeeUPO (forward)'], '1.00', 1000, w)).toBe('SeeUPO (forward)');
    expect(fitGroupLabel(['SeeUPO (forward)'], '1.00', 70, w)).toBe('SeeUPO…');
    for (const room of [40, 90, 140, 200, 320, 460]) {
      const got = fitGroupLabel(eight, '0.30', room, w);
      if (w('8 at 0.30') <= room) expect(w(got!), `${room}: "${got}"`).toBeLessThanOrEqual(room);
      else expect(got).toBeNull();
    }
  });
  it('labels at line ends are pushed apart, and kept inside the plot', () => {
    expect(spreadLabels([100, 102, 50], 14, 0, 300)).toEqual([100, 114, 50]);
    expect(spreadLabels([295, 296], 14, 0, 300)).toEqual([286, 300]);
  });
});

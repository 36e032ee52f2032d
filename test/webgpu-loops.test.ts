import { describe, expect, it } from 'vitest';
import { kernelSource } from '../src/exec/webgpu/kernel';
import type { KernelShape } from '../src/exec/webgpu/layout';
import { loopsTestedAtTheEnd } from '../src/exec/webgpu/loops';

// The kernel's loops test their condition at the end of a pass (src/exec/webgpu/loops.ts): the
// rewrite of each form, nested loops, and no for or while left in a whole kernel. That the
// rewritten kernel compiles is test/webgpu-layout.test.ts's (Tint, every shape); that its numbers
// are the CPU executor's, e2e/webgpu.spec.ts's.

describe('loopsTestedAtTheEnd', () => {
  it('rewrites a for loop: its init before, its condition guarding the first pass and ending each', () => {
    expect(loopsTestedAtTheEnd('x; for (var j = 0u; j < V; j++) { a(j); } y;')).toBe(
      'x; { var j = 0u; if (j < V) { loop { a(j);  continuing { j++; break if !(j < V); } } } } y;',
    );
  });

  it('rewrites a while loop, and the loops nested in a body', () => {
    expect(loopsTestedAtTheEnd('while (u >= c && a < 2u) { a += 1u; }')).toBe('if (u >= c && a < 2u) { loop { a += 1u;  continuing { break if !(u >= c && a < 2u); } } }');
    const out = loopsTestedAtTheEnd('for (var i = 0u; i < RS; i++) { for (var k = k0; k < k1; k++) { if (w == 0.0) { continue; } f(i, k); } }');
    expect(out).toBe(
      '{ var i = 0u; if (i < RS) { loop { { var k = k0; if (k < k1) { loop { if (w == 0.0) { continue; } f(i, k);  continuing { k++; break if !(k < k1); } } } }  continuing { i++; break if !(i < RS); } } } }',
    );
  });

  it('refuses a loop of another form rather than change what it does', () => {
    expect(() => loopsTestedAtTheEnd('for (;;) { a(); }')).toThrow('a for loop of another form');
    expect(() => loopsTestedAtTheEnd('for (var j = 0u; j < 2u; j++) a();')).toThrow('a loop without a block');
  });

  it('leaves no for or while in a whole kernel (exact, sampled, an MLP)', () => {
    const lock: KernelShape = { sampled: true, B: 1, G: 8, contexts: 1, V: 3, N: 3, L: 1, T: 3, nodesPerContext: 13, offset: [0, 1, 4, 13], S: 27, gamma: 1, perTurn: false, mlp: null };
    for (const s of [lock, { ...lock, sampled: false }, { ...lock, mlp: { layers: [14, 32, 3], activation: 'tanh' as const } }]) {
      const src = kernelSource(s);
      expect(src).not.toMatch(/\b(for|while) \(/);
      expect(src).toContain('break if');
    }
  });
});

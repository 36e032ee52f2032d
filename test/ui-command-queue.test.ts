import { describe, expect, it } from 'vitest';
import { CommandQueue } from '../src/ui/command-queue';

// The page's command queue: tasks in the order given, each after the previous has finished;
// Reset (clear) drops the queued ones and their failures.

const tick = () => new Promise((r) => setImmediate(r));

describe('CommandQueue', () => {
  it('runs tasks one after another in order, even when an earlier one takes longer', async () => {
    const q = new CommandQueue(() => undefined);
    const log: string[] = [];
    let release!: () => void;
    q.add(() => new Promise<void>((r) => (release = () => (log.push('slow'), r()))));
    const last = q.add(() => log.push('fast'));
    await tick();
    expect(log).toEqual([]);
    release();
    await last;
    expect(log).toEqual(['slow', 'fast']);
  });

  it('clear before a task starts drops it too', async () => {
    const q = new CommandQueue(() => undefined);
    const log: string[] = [];
    q.add(() => log.push('never'));
    q.clear();
    await q.add(() => log.push('after'));
    await tick();
    expect(log).toEqual(['after']);
  });

  it('a failure is reported and the queue goes on', async () => {
    const errors: string[] = [];
    const q = new CommandQueue((m) => errors.push(m));
    q.add(() => {
      throw new Error('worker gone');
    });
    const log: number[] = [];
    await q.add(() => log.push(1));
    expect(errors).toEqual(['worker gone']);
    expect(log).toEqual([1]);
  });

  it('clear drops queued tasks and their failures; a task added afterwards runs at once', async () => {
    const errors: string[] = [];
    const q = new CommandQueue((m) => errors.push(m));
    const log: string[] = [];
    let release!: () => void;
    const first = q.add(() => new Promise<void>((r) => (release = r)));
    await tick(); // the first task has started
    q.add(() => log.push('dropped'));
    q.add(() => Promise.reject(new Error('dropped failure')));
    q.clear();
    await q.add(() => log.push('after reset'));
    expect(log).toEqual(['after reset']);
    release();
    await first;
    await tick();
    expect(log).toEqual(['after reset']);
    expect(errors).toEqual([]);
  });
});

// The page's commands to its workers run one after another, in the order they were given, so a
// burst of presses (Step, Step, Pause) is performed as pressed; Reset drops what is still queued.

export class CommandQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** Bumped by clear(): tasks queued before it do nothing, and their failures are not reported. */
  private generation = 0;

  constructor(private readonly onError: (message: string) => void) {}

  /** Run `task` after every task queued before it; a failure goes to onError (the queue goes on). */
  add(task: () => Promise<unknown> | unknown): Promise<unknown> {
    const g = this.generation;
    this.tail = this.tail
      .then(() => (g === this.generation ? task() : undefined))
      .catch((e: unknown) => {
        if (g === this.generation) this.onError(e instanceof Error ? e.message : String(e));
      });
    return this.tail;
  }

  /** Drop every queued task: the next one added starts at once. */
  clear(): void {
    this.generation++;
    this.tail = Promise.resolve();
  }
}

/// <reference lib="webworker" />
import { openSessionHost, type MakeSteppable, type Post } from './session-host';
import type { SessionCommand, SessionEvent } from './session-protocol';

/** Answer the page's session commands in this worker (data blocks are transferred, not copied). */
export function serveSession(scope: DedicatedWorkerGlobalScope, make: MakeSteppable): void {
  const post = (e: SessionEvent) => {
    if (e.type === 'data') scope.postMessage(e, [e.block.buffer as ArrayBuffer]);
    else scope.postMessage(e);
  };
  const handle = serveSessions(post, make);
  scope.onmessage = (e: MessageEvent<SessionCommand>) => handle(e.data);
}

/**
 * One session after another in one worker: 'close' ends the current session (it computes and
 * posts nothing more) and answers 'closed'; the next 'init' opens a fresh one. A new experiment
 * then starts in a worker whose code is already loaded and compiled, without a worker's start-up.
 */
export function serveSessions(post: Post, make: MakeSteppable): (cmd: SessionCommand) => void {
  let current: ReturnType<typeof openSessionHost> | null = null;
  return (cmd) => {
    if (cmd.type === 'close') {
      current?.close();
      current = null;
      post({ type: 'closed' });
      return;
    }
    if (cmd.type === 'init') {
      current?.close();
      current = openSessionHost(post, make);
    }
    current?.handle(cmd);
  };
}

/// <reference lib="webworker" />
import { sessionHost, type MakeSteppable } from './session-host';
import type { SessionCommand, SessionEvent } from './session-protocol';

/** Answer the page's session commands in this worker (data blocks are transferred, not copied). */
export function serveSession(scope: DedicatedWorkerGlobalScope, make: MakeSteppable): void {
  const post = (e: SessionEvent) => {
    if (e.type === 'data') scope.postMessage(e, [e.block.buffer as ArrayBuffer]);
    else scope.postMessage(e);
  };
  const handle = sessionHost(post, make);
  scope.onmessage = (e: MessageEvent<SessionCommand>) => handle(e.data);
}

// The page's store, as components use it: the state (state.ts: one zustand store; controls edit
// `draft`, every edit is validated, streamed results live in `live`) and the actions on it. The
// actions import state.ts, never this file, so the store has no import cycle.
export * from './state';
export * from './session-actions';
export * from './link-actions';
export * from './lesson-actions';
export * from './view-actions';
export * from './sweep-state';
export * from './sweep-actions';

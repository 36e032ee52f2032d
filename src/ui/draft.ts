// The draft: the config object the controls edit, its paths, its structural edits
// (draft-edits.ts) and the messages beside its controls (draft-errors.ts). Pure: no React.

export { getPath, setPath, numberOrText, parsePath, joinPath } from './draft-path';
export { validateDraft, controlPathOf } from './draft-errors';
export {
  addAlgorithm,
  removeAlgorithm,
  setEnvPreset,
  toCustomEnv,
  resizeRewards,
  setTurnRewards,
  turnTablesFit,
  turnTableCells,
  customTableShape,
  effectiveAlgorithm,
  entryLabel,
  algorithmSummary,
  algorithmsOf,
  MAX_EDITOR_CELLS,
  type DraftEdit,
  type TableShape,
} from './draft-edits';

/** Paths applied to the running experiment; every other change restarts it. */
export const HOT_PATHS = ['optimizer.lr', 'algorithms[i].clip'] as const;

export function isHotPath(path: string): boolean {
  return path === 'optimizer.lr' || /^algorithms\[\d+\]\.clip$/.test(path);
}

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
export { isHotPath } from '../core/config/hot-paths';

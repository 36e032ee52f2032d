import { useApp } from './state';

// Small view actions of the page: the legend's hidden and highlighted lines, the settings drawer.

/** Hide or show an algorithm's lines (a legend click). */
export const toggleLine = (id: string) =>
  useApp.setState((s) => ({ hiddenLines: s.hiddenLines.includes(id) ? s.hiddenLines.filter((x) => x !== id) : [...s.hiddenLines, id] }));
/** Open or close the settings drawer. */
export const setSettingsOpen = (open: boolean) => useApp.setState({ settingsOpen: open });
/** Make an algorithm's lines stand out (null: none). */
export const setHoverLine = (id: string | null) => useApp.setState({ hoverLine: id });

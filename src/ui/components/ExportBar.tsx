/** Export of results and charts (being written). */
export function ExportBar() {
  return null;
}

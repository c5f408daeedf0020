import type { Plant } from '../api/responses.js';
import { renderTable } from './table.js';

/** One plant about to be deleted: its id, and the plant when it is known. */
export interface PreviewRow {
  id: string;
  /** The plant as listed; null when the list does not hold this id; undefined when nothing was looked up. */
  plant?: Plant | null;
}

/** Rows a preview shows before "… and N more". */
export const PREVIEW_ROWS = 10;

/**
 * A short ID/NAME/TAG table of what is about to be deleted, so a person
 * sees names, not only ids. Text from the service is escaped as in any
 * table (cells are plain text, so colour is only the header's). With a
 * `width`, it fits a terminal that wide; ids are never cut.
 */
export async function renderPreview(
  rows: readonly PreviewRow[],
  { color, max = PREVIEW_ROWS, width }: { color: boolean; max?: number; width?: number | undefined },
): Promise<string> {
  const shown = rows.slice(0, max);
  const named = shown.some((row) => row.plant !== undefined);
  const headers = named ? ['ID', 'NAME', 'TAG'] : ['ID'];
  const cells = shown.map((row) => {
    if (!named) return [row.id];
    if (row.plant === null || row.plant === undefined) return [row.id, '(not in the list)', ''];
    return [row.id, row.plant.name, row.plant.tag];
  });
  let text = '';
  for await (const block of renderTable(headers, cells, color, { width, whole: [0] })) text += block;
  if (rows.length > shown.length) text += `… and ${rows.length - shown.length} more\n`;
  return text;
}

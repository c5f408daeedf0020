/**
 * CSV as RFC 4180 writes it (and `plants list -o csv` prints it): fields
 * separated by commas, records by CRLF or LF, fields quoted with `"` when
 * they hold a comma, quote or line break, quotes inside doubled.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n') endRecord();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endRecord();
      i += 1;
    } else field += ch;
    i += 1;
  }
  if (quoted) throw new Error('a quoted field is not closed');
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

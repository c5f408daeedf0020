/**
 * CSV as RFC 4180 writes it (and `plants list -o csv` prints it): fields
 * separated by commas, records by CRLF, LF or CR, fields quoted with `"`
 * when they hold a comma, quote or line break, quotes inside doubled.
 * Strict where a mistake could shift a column: a quote must close before a
 * comma or line end, and an unclosed quote is an error.
 */
export function parseCsv(text: string): string[][] {
  return parseCsvLines(text).records;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * parseCsv, and the line each record starts on, counted from `firstLine`
 * (a field may hold line breaks, so records and lines differ). Errors name
 * the line too.
 */
export function parseCsvLines(text: string, firstLine = 1): { records: string[][]; lines: number[] } {
  const records: string[][] = [];
  const lines: number[] = [];
  let record: string[] = [];
  let field = '';
  let line = firstLine;
  let recordLine = firstLine;
  let i = 0;
  // A quoted empty field (`""`) is a record at the end of the text too.
  let quoted = false;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    lines.push(recordLine);
    record = [];
    field = '';
    quoted = false;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' && field === '') {
      // A quoted field: up to the closing quote, "" standing for one quote.
      let close = i + 1;
      for (;;) {
        close = text.indexOf('"', close);
        if (close === -1) throw new Error(`a quoted field starting on line ${line} is never closed`);
        if (text[close + 1] !== '"') break;
        close += 2;
      }
      field = text.slice(i + 1, close).replaceAll('""', '"');
      quoted = true;
      line += field.match(LINE_BREAK)?.length ?? 0;
      i = close + 1;
      const after = text[i];
      if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r') {
        throw new Error(`text follows a closing quote on line ${line}`);
      }
      continue;
    }
    if (ch === ',') {
      record.push(field);
      field = '';
      quoted = false;
    } else if (ch === '\n' || ch === '\r') {
      endRecord();
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      line += 1;
      recordLine = line;
    } else field += ch;
    i += 1;
  }
  if (field !== '' || record.length > 0 || quoted) endRecord();
  return { records, lines };
}

// Where a text stops being JSON: Node's own message names no place for most mistakes, and a
// reviewer who broke a plan by hand needs the line.

/** JSON's white space. */
const BLANK = /[ \t\n\r]/;
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const ESCAPE = /\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** Where the scan stopped. */
class Stop extends Error {
  constructor(readonly at: number) {
    super('not JSON');
  }
}

/** A scan of a text as one JSON value, character by character, that stops where it breaks. */
class JsonScan {
  at = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    throw new Stop(this.at);
  }

  blanks(): void {
    while (this.at < this.text.length && BLANK.test(this.text[this.at]!)) this.at += 1;
  }

  expect(ch: string): void {
    if (this.text[this.at] !== ch) this.fail();
    this.at += 1;
  }

  value(): void {
    this.blanks();
    const ch = this.text[this.at];
    if (ch === '{') this.members('}', () => this.member());
    else if (ch === '[') this.members(']', () => this.value());
    else if (ch === '"') this.string();
    else if (ch === 't' || ch === 'f' || ch === 'n') {
      for (const letter of ch === 't' ? 'true' : ch === 'f' ? 'false' : 'null') this.expect(letter);
    } else this.pattern(NUMBER);
  }

  member(): void {
    this.blanks();
    if (this.text[this.at] !== '"') this.fail();
    this.string();
    this.blanks();
    this.expect(':');
    this.value();
  }

  members(close: string, item: () => void): void {
    this.at += 1;
    this.blanks();
    if (this.text[this.at] === close) {
      this.at += 1;
      return;
    }
    for (;;) {
      item();
      this.blanks();
      if (this.text[this.at] === close) break;
      this.expect(',');
    }
    this.at += 1;
  }

  string(): void {
    this.at += 1;
    for (;;) {
      const ch = this.text[this.at];
      if (ch === undefined || ch < ' ') this.fail();
      if (ch === '\\') this.pattern(ESCAPE);
      else this.at += 1;
      if (ch === '"') return;
    }
  }

  pattern(pattern: RegExp): void {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (!match) this.fail();
    this.at += match[0].length;
  }
}

/**
 * The offset of the first character at which `text` stops being one JSON
 * value (its length when it ends too soon); undefined when it is JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  const scan = new JsonScan(text);
  try {
    scan.value();
    scan.blanks();
    return scan.at === text.length ? undefined : scan.at;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    return Math.min(err.at, text.length);
  }
}

/** Where JSON breaks, for a person: `an unexpected "," at line 5, column 3`, or that the text ends too soon. */
export function jsonErrorPlace(text: string): string {
  let offset: number | undefined;
  try {
    offset = jsonErrorOffset(text);
  } catch (err) {
    // The scan recurses: arrays or objects nested deeper than the stack are no plan, and the place is not found.
    if (err instanceof RangeError) return 'arrays or objects nested too deeply';
    throw err;
  }
  if (offset === undefined) return 'it is JSON';
  if (text.trim() === '') return 'the file is empty';
  if (offset >= text.length) return 'the file ends too soon';
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `an unexpected ${JSON.stringify(text[offset])} at line ${line}, column ${column}`;
}

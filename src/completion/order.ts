/**
 * Natural order, for values looked up at run time (plant ids, profile names):
 * compared piece by piece, a run of ASCII digits by its value and any other
 * text by code point, so 2, 9, 10, 100, then a9, a10, b. Equal values
 * (`7`, `007`) fall back to code-point order of the whole text, so the
 * order never depends on the order the service sent. Independent of locale.
 */
export function naturalOrder(a: string, b: string): number {
  return compareKeys(naturalKey(a), naturalKey(b)) || compareCodePoints(a, b);
}

/** `values` sorted by naturalOrder, each split into pieces once, not on every comparison. */
export function sortNaturally<T>(values: readonly T[], text: (value: T) => string): T[] {
  return values
    .map((value) => ({ value, key: naturalKey(text(value)) }))
    .sort((a, b) => compareKeys(a.key, b.key) || compareCodePoints(text(a.value), text(b.value)))
    .map(({ value }) => value);
}

/** Runs of digits, without leading zeros, and runs of other text. */
type Piece = { digits: string } | { text: string };

function naturalKey(value: string): Piece[] {
  return Array.from(value.matchAll(/[0-9]+|[^0-9]+/g), ([run]) =>
    /^[0-9]/.test(run) ? { digits: run.replace(/^0+(?=.)/, '') } : { text: run },
  );
}

function compareKeys(a: Piece[], b: Piece[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    const order =
      'digits' in x && 'digits' in y
        ? // Without leading zeros, a longer run is a larger number; any length, no rounding.
          x.digits.length - y.digits.length || compareCodePoints(x.digits, y.digits)
        : compareCodePoints('digits' in x ? x.digits : x.text, 'digits' in y ? y.digits : y.text);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** By code point: unlike `<` on UTF-16 units, characters above U+FFFF sort after U+E000-U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const order = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

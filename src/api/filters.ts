import type { Plant } from './responses.js';

/** Client-side filters of `list` and `prune`; they apply after the service's `limit`. */
export interface PlantFilter {
  /** Keep plants whose tag is any of these (none: no tag filter). */
  tags: string[];
  /** Keep plants whose whole name matches this glob: `*` any run of characters, `?` one. */
  name?: string;
}

export function hasFilter(filter: PlantFilter): boolean {
  return filter.tags.length > 0 || filter.name !== undefined;
}

/**
 * A glob's test of a whole text, case-sensitive: `*` any run of characters
 * (none too), `?` one (a code point: an emoji is one), anything else itself.
 *
 * Not a regular expression: `^.*a.*a.*a.*b$`, from `*a*a*a*b`, backtracks
 * for as long as a power of the text's length where no match exists (hours
 * for a name of a few thousand characters, from a service that sent one).
 * Here the text between stars is looked for once each, leftmost, in turn:
 * a star can always take the rest, so the earliest place for each piece is
 * the one that leaves the most for the pieces after it. The last piece
 * must end the text, so its place is counted back from the end. Time: the
 * text's length times the glob's, at worst.
 */
export function globMatcher(glob: string): (text: string) => boolean {
  const [first, ...rest] = glob.split(/\*+/).map(globPiece);
  if (rest.length === 0) return (text) => matchAt(text, 0, first!) === text.length;
  const last = rest.pop()!;
  return (text) => {
    let at = matchAt(text, 0, first!);
    for (const piece of rest) {
      if (at < 0) return false;
      at = findFrom(text, at, piece);
    }
    if (at < 0) return false;
    // The last piece holds a fixed number of characters: it starts that many before the end.
    const start = backBy(text, last.characters);
    return start >= at && matchAt(text, start, last) === text.length;
  };
}

/** Text between stars: runs of literal text and of `?`s (counted), and how many characters it matches. */
interface GlobPiece {
  parts: (string | number)[];
  characters: number;
}

function globPiece(text: string): GlobPiece {
  const parts: (string | number)[] = [];
  let characters = 0;
  for (const run of text.match(/\?+|[^?]+/g) ?? []) {
    const any = run.startsWith('?');
    parts.push(any ? run.length : run);
    characters += any ? run.length : [...run].length;
  }
  return { parts, characters };
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether `at` is between two characters, not inside a surrogate pair. */
function atBoundary(text: string, at: number): boolean {
  return at === 0 || !isLow(text.charCodeAt(at)) || !isHigh(text.charCodeAt(at - 1));
}

/** Where the text matching `piece` from `at` ends, or -1. */
function matchAt(text: string, at: number, piece: GlobPiece): number {
  for (const part of piece.parts) {
    if (typeof part === 'string') {
      if (!text.startsWith(part, at)) return -1;
      at += part.length;
      // Text that ends in half a surrogate pair matches only that half alone, not the pair's.
      if (!atBoundary(text, at)) return -1;
      continue;
    }
    for (let left = part; left > 0; left -= 1) {
      if (at >= text.length) return -1;
      at += isHigh(text.charCodeAt(at)) && isLow(text.charCodeAt(at + 1)) ? 2 : 1;
    }
  }
  return at;
}

/** Where the leftmost match of `piece` at or after `from` (between characters) ends, or -1. */
function findFrom(text: string, from: number, piece: GlobPiece): number {
  const lead = piece.parts[0];
  for (let at = from; at <= text.length; at += 1) {
    // A piece that starts with text can only start where that text is.
    if (typeof lead === 'string') {
      at = text.indexOf(lead, at);
      if (at < 0) return -1;
    }
    if (!atBoundary(text, at)) continue;
    const end = matchAt(text, at, piece);
    if (end >= 0) return end;
  }
  return -1;
}

/** Where the text's last `characters` characters start (0 if it has fewer). */
function backBy(text: string, characters: number): number {
  let at = text.length;
  for (let left = characters; left > 0 && at > 0; left -= 1) {
    at -= isLow(text.charCodeAt(at - 1)) && at > 1 && isHigh(text.charCodeAt(at - 2)) ? 2 : 1;
  }
  return at;
}

/** A test for one plant: every plant passes when there is no filter. */
export function plantMatcher(filter: PlantFilter): (plant: Plant) => boolean {
  const tags = new Set(filter.tags);
  const name = filter.name === undefined ? undefined : globMatcher(filter.name);
  return (plant) =>
    (tags.size === 0 || (typeof plant.tag === 'string' && tags.has(plant.tag))) &&
    (name === undefined || name(plant.name));
}

/** The plants that pass, batch by batch as they come. */
export async function* filterPlants(batches: AsyncIterable<Plant[]>, filter: PlantFilter): AsyncGenerator<Plant[]> {
  if (!hasFilter(filter)) {
    yield* batches;
    return;
  }
  const matches = plantMatcher(filter);
  for await (const batch of batches) {
    const kept = batch.filter(matches);
    if (kept.length) yield kept;
  }
}

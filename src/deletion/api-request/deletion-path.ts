import { UsageError } from '../../shared/errors.js';
import { quoted } from '../../shared/text.js';
import { folded } from '../../shared/url.js';

/** What a DELETE's path names, as the guard rails see it. */
export type Deleted = { kind: 'plant'; id: string } | { kind: 'plants' } | { kind: 'other' };

/**
 * Text with each run of valid percent-encoded UTF-8 decoded; an escape that
 * is not valid UTF-8 (`%E0%A4`) is kept as written, as servers that decode
 * leniently keep it.
 */
function decodedLoosely(text: string): string {
  return text.replace(/(?:%[\dA-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });
}

/** Segments as a server resolves them: empty ones (`//`, a trailing slash) and `.` dropped, `..` taking the one before away. */
function resolved(segments: readonly string[]): string[] {
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  return kept;
}

/**
 * How servers split a path into segments, each a reading the guard must
 * take: decoded segment by segment (most routers); decoded first and then
 * split, `\` a separator too (WSGI servers decode `%2F`; IIS takes `\`);
 * segment by segment with the `;` parameters taken off first (Tomcat,
 * Jetty: `/plants/7;x` is plant 7).
 */
const READINGS: readonly ((path: string) => string[])[] = [
  (path) => resolved(path.split('/').map(decodedLoosely)),
  (path) => resolved(decodedLoosely(path).split(/[/\\]/)),
  (path) => resolved(path.split('/').map((segment) => decodedLoosely(segment.replace(/;.*$/s, '')))),
];

/** What the resolved segments name: a plant (`…/plants/<id>`, under any prefix, `plants` in any case), the collection, or other. */
function named(segments: readonly string[]): Deleted {
  const isPlants = (segment: string | undefined) => segment !== undefined && folded(segment) === 'plants';
  if (segments.length >= 2 && isPlants(segments.at(-2))) return { kind: 'plant', id: segments.at(-1)! };
  if (isPlants(segments.at(-1))) return { kind: 'plants' };
  return { kind: 'other' };
}

/**
 * What a DELETE of `path` (the whole path on the base URL's origin, its
 * query left out or not) deletes, read loosely, as any server might: a
 * plant wherever its path ends in `/plants/<id>` (under any prefix, not only
 * the base URL's: `/v2/plants/7` under a base URL on `/v1`), percent-encoding
 * decoded, `//`, a trailing slash and dot segments resolved, `plants` in any
 * case. A path the readings differ on (an encoded slash in the id, a `;`)
 * is refused: the protections cannot be checked for one plant.
 */
export function deletedBy(path: string): Deleted {
  const pathOnly = path.replace(/[?#].*$/s, '');
  const readings = READINGS.map((read) => named(read(pathOnly)));
  const first = readings[0]!;
  const same = (other: Deleted) =>
    other.kind === first.kind && (other.kind !== 'plant' || (first.kind === 'plant' && other.id === first.id));
  if (readings.every(same)) return first;
  throw new UsageError(
    `refusing DELETE ${quoted(pathOnly)}: servers read it as different plants or paths (an encoded slash or backslash, a ;), so the profile's protections cannot be checked; write it as /plants/<id>`,
  );
}

import type { Target } from '../http/attempt.js';
import { maskedUrl } from '../secrets/registry.js';
import { printable } from '../shared/text.js';

/**
 * The list's rules beyond its body: the interface has no pages, and a list
 * is the collection at the address asked for.
 */

/** A Link header naming a next page: `<…?page=2>; rel="next"` (rel may list several types). */
const NEXT_PAGE = /;\s*rel\s*=\s*(?:"(?:[^"]*\s)?next(?:\s[^"]*)?"|next(?=\s*(?:[;,]|$)))/i;

/** The interface has no pages; a service that has them says so in a Link header (RFC 8288). */
export function namesNextPage(link: string | undefined): boolean {
  return NEXT_PAGE.test(link ?? '');
}

export const NEXT_PAGE_WARNING =
  'the service says it has more plants than this answer holds (its Link header names a next page); plants reads this page only, so the list, prune and --max-deletes percentages see only these';

/** A collection's path: without its query, fragment and trailing slashes. */
function collection(target: Target): string {
  return target.path.replace(/[?#].*$/s, '').replace(/\/+$/, '');
}

/** A target as a message shows it: without its query, the secrets masked, printable. */
function shown(target: Target): string {
  return printable(maskedUrl(target.href.replace(/[?#].*$/s, '')));
}

/**
 * What a list is, when redirects led it to another path than the one asked
 * for (a trailing slash aside): another address's collection. A DELETE goes
 * to `<asked>/{id}`, never where a redirect points, so deleting what it
 * names would act on ids of one collection at the address of another.
 * Undefined when the list came from where it was asked.
 */
export function movedList(asked: Target, answered: Target): { refusal: string; warning: string } | undefined {
  if (collection(answered) === collection(asked)) return undefined;
  const moved = `the service redirected the list from ${shown(asked)} to ${shown(answered)}`;
  return {
    refusal: `${moved}: those are the plants of another address, and a DELETE goes only to ${shown(asked)}/<id>, never where a redirect points; point the base URL at the address the service moved to; nothing was deleted`,
    warning: `${moved}; delete and prune refuse to act on it: point the base URL at the address the service moved to`,
  };
}

import { RefusedError } from '../../shared/errors.js';
import { printable } from '../../shared/text.js';
import { capOf, formatMaxDeletes, type MaxDeletes } from '../../shared/values.js';
import type { PlanDocument } from './document.js';

// The refusals of an apply before anything is sent: a plan for another place, too old, or too large.

/** Where a run deletes: the base URL's origin and path prefix, the profile; masked as a plan keeps them. */
export interface PlanPlace {
  origin: string;
  pathPrefix: string;
  profile: string;
}

/** Where a base URL deletes, as a plan records it: its origin, and its path without a trailing slash. */
export function placeOf(baseUrl: URL, profile: string, mask: (text: string) => string): PlanPlace {
  return {
    origin: mask(baseUrl.origin),
    pathPrefix: mask(baseUrl.pathname.replace(/\/+$/, '')),
    profile: mask(profile),
  };
}

/** A plan made for another origin, path prefix or profile than the run's is refused, naming both. */
export function checkPlanPlace(plan: PlanDocument, here: PlanPlace): void {
  const differences: string[] = [];
  if (plan.origin !== here.origin) differences.push(`origin ${shown(plan.origin)}, not ${shown(here.origin)}`);
  if (plan.path_prefix !== here.pathPrefix) {
    differences.push(`path prefix ${shown(plan.path_prefix || '/')}, not ${shown(here.pathPrefix || '/')}`);
  }
  if (plan.profile !== here.profile) differences.push(`profile ${shown(plan.profile)}, not ${shown(here.profile)}`);
  if (differences.length === 0) return;
  throw new RefusedError(
    `plan ${shortPlanId(plan.plan_id)} was made for another service: ${differences.join('; ')}; nothing was deleted; apply it with the base URL and profile it was made for (--profile, PLANTS_BASE_URL), or make a new plan`,
  );
}

/** Plans made later than now by more than this are refused: a clock that far off, or an edit. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * A plan older than `maxAgeMs` (0: no limit) is refused: the store it
 * describes has had that long to change, and its review with it.
 */
export function checkPlanAge(plan: PlanDocument, maxAgeMs: number, now: number): void {
  const made = Date.parse(plan.created_at);
  if (made - now > CLOCK_SKEW_MS) {
    throw new RefusedError(
      `plan ${shortPlanId(plan.plan_id)} was made at ${plan.created_at}, later than now (${new Date(now).toISOString()}); nothing was deleted; check this machine's clock, or make a new plan`,
    );
  }
  if (maxAgeMs === 0 || now - made <= maxAgeMs) return;
  throw new RefusedError(
    `plan ${shortPlanId(plan.plan_id)} was made at ${plan.created_at}, ${ageText(now - made)} ago, more than --max-age ${ageText(maxAgeMs)}; nothing was deleted; make a new plan and have it reviewed, or pass --max-age (0 for no limit)`,
  );
}

/**
 * A plan of more plants than the cap in effect is refused: `max` is
 * --max-deletes, else the profile's; a percentage is of the `listed`
 * distinct plants the service lists now.
 */
export function checkPlanCap(
  plan: PlanDocument,
  max: MaxDeletes | undefined,
  listed: number,
  source: { flag: boolean; profile: string },
): void {
  if (max === undefined) return;
  const cap = capOf(max, listed);
  const size = plan.plants.length;
  if (size <= cap) return;
  const shownCap =
    typeof max === 'number' ? `${max}` : `${formatMaxDeletes(max)} (${cap} of the ${listed} plants listed)`;
  const whose = source.flag ? `--max-deletes ${shownCap}` : `the max-deletes ${shownCap} of profile ${source.profile}`;
  throw new RefusedError(
    `plan ${shortPlanId(plan.plan_id)} holds ${size} plant${size === 1 ? '' : 's'}, more than ${whose}; nothing was deleted; ` +
      (source.flag ? 'pass a larger --max-deletes' : 'pass --max-deletes <n> to allow more for this run'),
  );
}

/** A plan id as messages name it: its first 8 characters, as `plants history` shows run ids. */
export function shortPlanId(id: string): string {
  return printable(id.slice(0, 8));
}

function shown(text: string): string {
  return printable(JSON.stringify(text));
}

/** A duration for a person: `26h`, `3d 2h`, `45m`, `30s`. */
export function ageText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours}h` : `${hours}h ${minutes % 60}m`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days}d` : `${days}d ${hours % 24}h`;
}

/** How old a plan may be when --max-age is not given. */
export const DEFAULT_MAX_AGE = '24h';

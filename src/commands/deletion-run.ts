import type { Plant } from '../api/responses.js';
import type { Context } from '../context.js';
import { guardDeletion, lookUp, plantFor, type DeletionTarget } from '../deletion/guard.js';
import { checkDeletionJournal, journalOnByEnv } from '../deletion/journal/choice.js';
import { idKey } from '../deletion/protections.js';
import { confirmQuestion, requireSendable, uniqueTargets, withPlantsSeen, wouldDelete } from '../deletion/targets.js';
import { formatJson } from '../output/formats.js';
import { writeOut } from '../output/iostreams.js';
import { info, warning } from '../output/messages.js';
import { PREVIEW_ROWS, renderPreview, type PreviewRow } from '../output/preview.js';
import { maskSecrets } from '../secrets/registry.js';
import { CancelledError, HttpError, UsageError } from '../shared/errors.js';
import type { DeletionOptions } from './deletion-flags.js';
import { deletionPlace, plantListerOf, profileGuardOf } from './deletion-context.js';
import { reportDeletions } from './deletion-report.js';
import { sendDeletions } from './deletion-send.js';
import { planWrittenLine, writePlan, type WrittenPlan } from './plan-make.js';
import type { PlanSelection } from '../deletion/plan/document.js';

// The person's side of a delete or prune: deletion/ decides and records; this shows, asks and reports.

/** The targets, and what the service listed when the caller listed it (prune): every plant, matching or not. */
type FoundTargets = DeletionTarget[] | { targets: DeletionTarget[]; listed: readonly Plant[] };

/**
 * Find the targets, check the cap and the protections, show and confirm, delete and report: the
 * part `delete` and `prune` share. Whether the run can be confirmed at all
 * is settled before anything is read or listed; nothing is deleted before
 * the confirmation; ids are deleted once each, in input order.
 */
export async function deletePlants(
  run: {
    command: 'delete' | 'prune';
    findTargets: () => Promise<FoundTargets>;
    /** prune's filters, as a plan records them (delete's selection is its ids). */
    filters?: Omit<Extract<PlanSelection, { command: 'prune' }>, 'command'>;
  },
  options: DeletionOptions,
  ctx: Context,
): Promise<void> {
  const { command } = run;
  const { io } = ctx;
  if (options.plan !== undefined && options.dryRun) {
    throw new UsageError('--plan and --dry-run: a plan is a dry run written down; pass one of them');
  }
  const sends = !options.dryRun && options.plan === undefined;
  if (!options.yes && sends && !io.canPrompt()) {
    throw new UsageError('--yes is required when not running interactively');
  }
  journalOnByEnv(ctx.env);
  // A journal the run could not write costs nothing: refused before anything is read, listed or asked
  // (a dry run too, in the same words); it is made and written only once the run is going to send.
  if (options.plan === undefined) checkDeletionJournal(options, ctx.env);
  const guard = await profileGuardOf(ctx);
  const found = await run.findTargets();
  const unique = uniqueTargets(Array.isArray(found) ? found : found.targets);
  const ids = unique.map((target) => target.id);
  // The way past an id plants cannot send: without it (prune lists it: its filters can leave it out).
  requireSendable(ids, command === 'prune' ? 'narrow --tag or --name to leave it out' : 'leave it out');
  // An empty plan is still a plan: a scheduled job's artifact says that nothing was to go.
  if (ids.length === 0 && options.plan === undefined) {
    if (options.json) await writeOut(io.stdout, formatJson([], io.stdoutIsTTY));
    info(io, 'No plants to delete');
    return;
  }
  // The cap and the protections, before anything is shown: the plants looked up for them are kept.
  let targets = await guardDeletion({
    targets: unique,
    listed: Array.isArray(found) ? undefined : found.listed,
    options,
    guard,
    listPlants: plantListerOf(ctx),
    warn: (text) => warning(io, text),
  });
  if (options.plan !== undefined) {
    const selection: PlanSelection = run.filters ? { command: 'prune', ...run.filters } : { command: 'delete', ids };
    const plan = await writePlan({ targets, selection, file: options.plan }, options, guard, ctx);
    await showDryRun(plan.targets, options, ctx, plan);
    return;
  }
  const client = await ctx.client();
  if (options.dryRun) {
    await showDryRun(targets, options, ctx);
    return;
  }
  if (!options.yes) targets = await confirmRun(targets, ctx);
  await sendDeletions({ command, targets }, client, options, ctx);
}

/** A dry run (or a plan): every row shown on a terminal (it is there to be read), each id reported as would_delete. */
async function showDryRun(
  targets: readonly DeletionTarget[],
  options: DeletionOptions,
  ctx: Context,
  plan?: WrittenPlan,
): Promise<void> {
  const { io } = ctx;
  if (io.stdoutIsTTY && !options.json) {
    const rows = await previewRows(targets, ctx, targets.length);
    const shown = { color: io.colorEnabled('stdout'), max: Infinity, width: io.terminalWidth('stdout') };
    await writeOut(io.stdout, await renderPreview(rows, shown));
  }
  const outcomes = wouldDelete(targets.map((target) => target.id));
  const where = await deletionPlace(ctx);
  if (plan === undefined) {
    await reportDeletions({ outcomes, options, io, target: where });
    return;
  }
  await reportDeletions({ outcomes, options: { ...options, dryRun: true }, io, planned: planWrittenLine(plan, where) });
}

/** The preview and the question; the targets with the plants the person saw named, or a CancelledError. */
async function confirmRun(targets: DeletionTarget[], ctx: Context): Promise<DeletionTarget[]> {
  const { io } = ctx;
  const rows = await previewRows(targets, ctx, PREVIEW_ROWS);
  io.stderr.write(await renderPreview(rows, { color: io.colorEnabled('stderr'), width: io.terminalWidth('stderr') }));
  const where = await deletionPlace(ctx);
  if (!(await ctx.prompter.confirm(confirmQuestion(targets, where)))) {
    throw new CancelledError('cancelled; nothing was deleted');
  }
  return withPlantsSeen(targets, rows);
}

/**
 * The rows a person sees before a delete: the plants the caller listed, or
 * else the plants looked up in the list, read only until the `shown` ids
 * are found. A failed lookup costs only the names.
 */
async function previewRows(targets: readonly DeletionTarget[], ctx: Context, shown: number): Promise<PreviewRow[]> {
  const ids = new Set(
    targets
      .slice(0, shown)
      .filter((target) => target.plant === undefined)
      .map((target) => target.id),
  );
  const wanted = new Set([...ids].map(idKey));
  if (wanted.size === 0) return targets.map(({ id, plant }) => ({ id, plant }));
  let found: Map<string, Plant[]>;
  try {
    ({ byId: found } = await lookUp(plantListerOf(ctx), wanted, { firstOnly: true, exact: ids }));
  } catch (err) {
    // The token was refused: every DELETE would be too, so the run ends here rather than ask.
    if (err instanceof HttpError && err.status === 401) throw err;
    warning(ctx.io, `could not look up the plants' names: ${maskSecrets((err as Error).message)}`);
    return targets.map(({ id }) => ({ id }));
  }
  return targets.map(({ id, plant }) => ({ id, plant: plant ?? plantFor(found, id) ?? null }));
}

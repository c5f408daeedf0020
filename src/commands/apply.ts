import { createReadStream } from 'node:fs';
import { Argument, Command, Option } from 'commander';
import { completeWith } from '../completion/hints.js';
import type { Context } from '../context.js';
import { lookUp, type PlantsById, type ProfileGuard } from '../deletion/guard.js';
import { checkDeletionJournal, journalDir, journalOnByEnv } from '../deletion/journal/choice.js';
import { duplicatesWarning } from '../deletion/list-count.js';
import {
  checkPlanAge,
  checkPlanCap,
  checkPlanPlace,
  DEFAULT_MAX_AGE,
  placeOf,
  shortPlanId,
} from '../deletion/plan/checks.js';
import type { PlanDocument } from '../deletion/plan/document.js';
import { deletedByPlan, settleDoneBefore } from '../deletion/plan/done-before.js';
import { parsePlan } from '../deletion/plan/parse.js';
import { driftOutcome, planVerdicts, targetsToSend, type PlanVerdict } from '../deletion/plan/verdicts.js';
import { checkProtections } from '../deletion/protection-check.js';
import { hasRules, idReadings } from '../deletion/protections.js';
import type { DeleteOutcome } from '../deletion/results.js';
import { confirmQuestion, requireSendable } from '../deletion/targets.js';
import { info, warning } from '../output/messages.js';
import { renderPreview } from '../output/preview.js';
import { maskSecrets } from '../secrets/registry.js';
import { CancelledError, JournalError, RefusedError, UsageError } from '../shared/errors.js';
import { fsReason } from '../shared/fs-reason.js';
import { printable } from '../shared/text.js';
import { readText, TooLargeError } from '../shared/read-text.js';
import { parseMaxAge } from '../shared/values.js';
import { APPLY_VIEW_FORMATS, showVerdicts, type ApplyViewFormat } from './apply-show.js';
import { addDeletionOptions, pickDeletionOptions, type DeletionFlags, type DeletionOptions } from './deletion-flags.js';
import { deletionPlace, plantListerOf, profileGuardOf } from './deletion-context.js';
import { reportDeletions } from './deletion-report.js';
import { sendDeletions } from './deletion-send.js';
import { examples } from './options.js';

interface ApplyOptions extends DeletionOptions {
  file: string;
  /** --max-age in milliseconds; 0 for no limit. */
  maxAgeMs: number;
  /** -o: how a dry run shows the plan's plants. */
  output?: ApplyViewFormat;
}

type ApplyRunner = (options: ApplyOptions, ctx: Context) => Promise<void>;

/** A plan file is a few hundred bytes a plant: this bounds a file that is no plan. */
const MAX_PLAN_BYTES = 256 * 1024 * 1024;

export function applyCommand(ctx: Context, run: ApplyRunner = runApply): Command {
  const command = new Command('apply')
    .description('Delete the plants of a plan (delete or prune --plan) that are still listed as planned')
    .addArgument(completeWith(new Argument('<file>', 'the plan file'), 'plan-files'))
    .option(
      '--max-age <duration>',
      `refuse a plan made longer ago than this: 30m, 24h, 7d; 0 for no limit (default: ${DEFAULT_MAX_AGE})`,
      parseMaxAge,
    )
    .addOption(
      new Option(
        '-o, --output <format>',
        'with --dry-run, show the plan plant by plant as a table (on a terminal), json, or markdown (for a CI job summary)',
      ).choices(APPLY_VIEW_FORMATS),
    );
  return addDeletionOptions(command, {
    dryRun: 'list the store once and show what an apply would do with each planned plant now; send no DELETE',
  })
    .addHelpText(
      'after',
      examples(
        'plants prune --tag seedling --plan plan.json     # made and reviewed first',
        'plants apply plan.json --dry-run',
        'plants apply plan.json --dry-run -o markdown >> "$GITHUB_STEP_SUMMARY"',
        'plants apply plan.json --yes --json',
      ),
    )
    .action(async (file: string, flags: DeletionFlags & { maxAge?: number; output?: ApplyViewFormat }) => {
      if (flags.output !== undefined && flags.dryRun !== true) {
        throw new UsageError('-o is for --dry-run; an apply reports as delete does (--json for its results)');
      }
      const maxAgeMs = flags.maxAge ?? parseMaxAge(DEFAULT_MAX_AGE);
      await run({ ...pickDeletionOptions(flags), file, maxAgeMs, output: flags.output }, ctx);
    });
}

/**
 * Read the plan, refuse it before anything is sent if it is for another
 * place, too old, too large or covers a protected plant; list the store
 * once, and delete each planned plant still listed as planned.
 */
async function runApply(options: ApplyOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  if (!options.yes && !options.dryRun && !io.canPrompt()) {
    throw new UsageError('--yes is required when not running interactively');
  }
  journalOnByEnv(ctx.env);
  if (!options.dryRun) checkDeletionJournal(options, ctx.env);
  const plan = parsePlan(await readPlan(options.file), options.file);
  const [client, profile] = await Promise.all([ctx.client(), ctx.profile()]);
  checkPlanPlace(plan, placeOf(client.baseUrl, profile.value, maskSecrets));
  checkPlanAge(plan, options.maxAgeMs, Date.now());
  requireSendable(
    plan.plants.map((plant) => plant.id),
    'remove it from the plan',
  );
  const guard = await profileGuardOf(ctx);
  const { verdicts, refusal } = await judgePlan(plan, guard, options, ctx);
  if (options.dryRun) {
    await showVerdicts(plan, verdicts, options.output ?? (io.stdoutIsTTY && !options.json ? 'table' : 'json'), ctx);
    if (refusal) throw refusal;
    return;
  }
  if (refusal) throw refusal;
  let targets = targetsToSend(verdicts);
  const arrange = (sent: DeleteOutcome[]) => {
    let next = 0;
    return verdicts.map((verdict) => (verdict.action === 'delete' ? sent[next++]! : driftOutcome(verdict)));
  };
  const settle = (outcomes: DeleteOutcome[]) => Promise.resolve(doneBefore(plan, outcomes, options, ctx));
  if (targets.length === 0) {
    await reportDeletions({ outcomes: await settle(arrange([])), options, io });
    return;
  }
  if (!options.yes) targets = await confirmApply(plan, targets, ctx);
  await sendDeletions({ command: 'apply', targets, plan: plan.plan_id, arrange, settle }, client, options, ctx);
}

async function readPlan(file: string): Promise<string> {
  try {
    // Bounded as it is read: /dev/zero or an endless pipe is refused, not read to memory's end.
    return await readText(createReadStream(file), MAX_PLAN_BYTES);
  } catch (err) {
    if (err instanceof TooLargeError) {
      throw new UsageError(`${printable(file)} is larger than any plan; nothing was deleted`);
    }
    throw new UsageError(`cannot read the plan ${printable(file)}: ${fsReason(err)}; nothing was deleted`);
  }
}

/**
 * List the store once and judge each planned plant against it; the cap on
 * the plan's size, and the protections in force, say whether the apply is
 * refused (a RefusedError to throw, after a dry run has shown why).
 */
async function judgePlan(
  plan: PlanDocument,
  guard: ProfileGuard,
  options: ApplyOptions,
  ctx: Context,
): Promise<{ verdicts: PlanVerdict[]; refusal?: RefusedError }> {
  const wanted = new Set(plan.plants.flatMap((plant) => idReadings(plant.id)));
  const { counted, byId } = await lookUp(plantListerOf(ctx), wanted);
  const duplicates = duplicatesWarning(counted);
  if (duplicates) warning(ctx.io, duplicates);
  const source = { flag: options.maxDeletes !== undefined, profile: guard.profile };
  checkPlanCap(plan, options.maxDeletes ?? guard.cap, counted.distinct, source);
  const rules = options.includeProtected ? undefined : guard.rules;
  const verdicts = planVerdicts(plan, byId, rules);
  return { verdicts, refusal: rules && hasRules(rules) ? protectionRefusal(verdicts, byId, guard) : undefined };
}

/** The refusal the protections in force make of the plants an apply would send, if they make one. */
function protectionRefusal(verdicts: PlanVerdict[], byId: PlantsById, guard: ProfileGuard): RefusedError | undefined {
  try {
    checkProtections(targetsToSend(verdicts), byId, guard.rules, guard.profile);
    return undefined;
  } catch (err) {
    if (err instanceof RefusedError) return err;
    throw err;
  }
}

/** The preview and the question, naming the plan, the host, the profile and how many plants. */
async function confirmApply(
  plan: PlanDocument,
  targets: ReturnType<typeof targetsToSend>,
  ctx: Context,
): Promise<ReturnType<typeof targetsToSend>> {
  const { io } = ctx;
  const rows = targets.map(({ id, plant }) => ({ id, plant }));
  io.stderr.write(await renderPreview(rows, { color: io.colorEnabled('stderr'), width: io.terminalWidth('stderr') }));
  const question = confirmQuestion(targets, await deletionPlace(ctx), `of plan ${shortPlanId(plan.plan_id)}`);
  if (!(await ctx.prompter.confirm(question))) throw new CancelledError('cancelled; nothing was deleted');
  return targets;
}

/**
 * A plant not found that an earlier apply of the same plan recorded as
 * deleted is done, not a failure (the state directory's journal tells;
 * without it, --ignore-missing does the same for every plant not found).
 */
function doneBefore(
  plan: PlanDocument,
  outcomes: DeleteOutcome[],
  options: ApplyOptions,
  ctx: Context,
): DeleteOutcome[] {
  const dir = journalDir(options, ctx.env);
  if (dir === undefined || !outcomes.some((o) => o.result.result === 'not_found' && o.error)) return outcomes;
  let deleted: Map<string, string>;
  try {
    deleted = deletedByPlan(dir, plan.plan_id);
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    warning(ctx.io, `${err.message}: the plants an earlier apply of this plan deleted count as not found`);
    return outcomes;
  }
  const settled = settleDoneBefore(outcomes, deleted);
  if (settled.done > 0) {
    const runs = settled.runs.map((run) => run.slice(0, 8)).join(', ');
    const one = settled.done === 1;
    info(
      ctx.io,
      `${settled.done} plant${one ? '' : 's'} not found ${one ? 'was' : 'were'} deleted (or sent for deletion) by an earlier apply of this plan (plants history ${runs}): done`,
    );
  }
  return settled.outcomes;
}

import type { Context } from '../context.js';
import { shortPlanId } from '../deletion/plan/checks.js';
import type { PlanDocument } from '../deletion/plan/document.js';
import type { PlanVerdict } from '../deletion/plan/verdicts.js';
import { writeOut } from '../output/iostreams.js';
import { info } from '../output/messages.js';
import type { RowView } from '../output/row-encoder.js';
import { writeRows } from '../output/rows.js';
import { printable } from '../shared/text.js';

// What `plants apply --dry-run` shows: each planned plant, and what an apply would do with it now.

/** The formats of a dry run: the terminal's table, JSON for scripts, Markdown for a CI job's summary. */
export const APPLY_VIEW_FORMATS = ['table', 'json', 'markdown'] as const;
export type ApplyViewFormat = (typeof APPLY_VIEW_FORMATS)[number];

/** Said of a plant a reviewer added: the plan's own selection did not choose it. */
const ADDED = "added by hand: not chosen by the plan's selection";

/** Why a plant would not be deleted, and whether the plan's selection chose it, in one cell. */
function why(verdict: PlanVerdict): string {
  const parts = [verdict.why, verdict.chosen ? undefined : ADDED].filter((part) => part !== undefined);
  return parts.join('; ');
}

const VERDICT_VIEW: RowView<PlanVerdict> = {
  table: {
    values: (v) => [v.planned.id, v.planned.name ?? '', v.planned.tag ?? '', v.action, why(v)],
    layout: () => ({
      headers: ['ID', 'NAME', 'TAG', 'ACTION', 'REASON'],
      shown: [0, 1, 2, 3, 4],
      whole: [0, 3],
    }),
  },
  data: {
    columns: ['id', 'name', 'tag', 'action', 'reason'],
    values: (v) => [v.planned.id, v.planned.name ?? '', v.planned.tag ?? '', v.action, why(v)],
  },
  json: (v) => ({
    id: v.planned.id,
    id_type: v.planned.id_type,
    name: v.planned.name,
    tag: v.planned.tag,
    action: v.action,
    reason: v.why ?? null,
    chosen_by_plan: v.chosen,
  }),
};

/** The dry run's rows in `format`, then (on stderr, for a person) how many would go. */
export async function showVerdicts(
  plan: PlanDocument,
  verdicts: readonly PlanVerdict[],
  format: ApplyViewFormat,
  ctx: Context,
): Promise<void> {
  const { io } = ctx;
  if (format === 'markdown') {
    await writeOut(io.stdout, markdown(plan, verdicts));
  } else if ((await writeRows(io, format, VERDICT_VIEW, [verdicts])) === 0 && format === 'table') {
    info(io, `Plan ${shortPlanId(plan.plan_id)} holds no plants`);
  }
  if (format !== 'markdown') info(io, `${verdictCount(verdicts)}; dry run: nothing was sent`);
}

/** `2 of 3 planned plants would be deleted`. */
function verdictCount(verdicts: readonly PlanVerdict[]): string {
  const deleting = verdicts.filter((v) => v.action === 'delete').length;
  return `${deleting} of ${verdicts.length} planned plant${verdicts.length === 1 ? '' : 's'} would be deleted`;
}

/**
 * The dry run as Markdown, for a CI job's summary (`$GITHUB_STEP_SUMMARY`):
 * a line on the plan, then a table. The service's text is escaped so that
 * it stays inside its cell and shows as written: no `|`, line break, HTML
 * or Markdown of its own.
 */
export function markdown(plan: PlanDocument, verdicts: readonly PlanVerdict[]): string {
  const selection =
    plan.selection.command === 'delete'
      ? `delete of ${plan.selection.ids.length} id${plan.selection.ids.length === 1 ? '' : 's'}`
      : `prune ${pruneWords(plan.selection)}`;
  const lines = [
    `### Deletion plan ${cell(shortPlanId(plan.plan_id))}`,
    '',
    `Made ${cell(plan.created_at)} by ${selection}, for ${cell(plan.origin + plan.path_prefix)} (profile ${cell(plan.profile)}). ${verdictCount(verdicts)}.`,
    '',
    '| ID | Name | Tag | Action | Reason |',
    '| --- | --- | --- | --- | --- |',
    ...verdicts.map(
      (v) =>
        `| ${cell(v.planned.id)} | ${cell(v.planned.name ?? '')} | ${cell(v.planned.tag ?? '')} | ${v.action === 'delete' ? 'delete' : `**${v.action}**`} | ${cell(why(v))} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

function pruneWords(selection: Extract<PlanDocument['selection'], { command: 'prune' }>): string {
  const words = [
    ...selection.tags.map((tag) => `--tag ${tag}`),
    ...(selection.name === null ? [] : [`--name ${selection.name}`]),
    ...(selection.all ? ['--all'] : []),
    ...(selection.limit === null ? [] : [`--limit ${selection.limit}`]),
  ];
  return cell(words.join(' '));
}

/** Text as a Markdown table cell shows it literally: escaped, on one line. */
function cell(text: string): string {
  return printable(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, (ch) => `\\${ch}`);
}

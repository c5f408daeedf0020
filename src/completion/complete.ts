import type { Argument, Command, Option } from 'commander';
import { dynamicValues, type DynamicValues } from './hints.js';
import { sortNaturally } from './order.js';

/** One completion: the word, and a short description where there is one. */
export interface Candidate {
  value: string;
  description: string;
}

/** Looks up values known only at run time; any failure means no candidates. */
/** Values of a kind, for the command line's global option values so far and the word being completed. */
export type ValueSource = (
  kind: DynamicValues,
  globals: Record<string, string>,
  current: string,
) => Promise<Candidate[]>;

function visibleCommands(command: Command): Command[] {
  return command.createHelp().visibleCommands(command);
}

/** The command's own options and those of its ancestors (global options). */
function optionsInScope(command: Command): Option[] {
  const options: Option[] = [];
  for (let current: Command | null = command; current; current = current.parent) {
    options.push(...current.createHelp().visibleOptions(current));
  }
  return options;
}

function findOption(command: Command, word: string): Option | undefined {
  return optionsInScope(command).find((option) => option.long === word || option.short === word);
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/** The first line of a description, for shells that show one. */
function summary(text: string): string {
  return text.split('\n')[0]!.replace(/\s+/g, ' ').trim();
}

async function valuesOf(
  target: Option | Argument,
  values: ValueSource,
  globals: Record<string, string>,
  current: string,
): Promise<Candidate[]> {
  if (target.argChoices) return target.argChoices.map((value) => ({ value, description: '' }));
  const kind = dynamicValues(target);
  return kind ? values(kind, globals, current) : [];
}

/** Values looked up at run time (ids, profiles) come in no order worth keeping. */
function isLookedUp(target: Option | Argument | undefined): boolean {
  return target !== undefined && !target.argChoices && dynamicValues(target) !== undefined;
}

/**
 * Candidates for the last of `words` (the words after the program name, the
 * last one being the word under the cursor, possibly empty), found by
 * walking the same commander tree that parses the command line. They come in
 * the order to show them, which the scripts keep: commands, flags and fixed
 * choices as help lists them; values looked up at run time in natural order
 * (see order.ts).
 */
export async function complete(program: Command, words: readonly string[], values: ValueSource): Promise<Candidate[]> {
  const current = words.at(-1) ?? '';
  let command = program;
  let position = 0;
  let operandsOnly = false;
  let pendingOption: Option | undefined;
  // Global option values given so far (--profile, --base-url), so looked-up values match the run.
  const globals: Record<string, string> = {};

  for (const word of words.slice(0, -1)) {
    if (pendingOption) {
      if (pendingOption.long) globals[pendingOption.attributeName()] = word;
      pendingOption = undefined;
      continue;
    }
    if (!operandsOnly && word === '--') {
      operandsOnly = true;
      continue;
    }
    if (!operandsOnly && word.startsWith('-') && word !== '-') {
      const [name, inline] = word.split(/=(.*)/s);
      const option = findOption(command, name!);
      if (option && takesValue(option)) {
        if (inline === undefined) pendingOption = option;
        else globals[option.attributeName()] = inline;
      }
      continue;
    }
    const sub =
      position === 0
        ? visibleCommands(command).find((c) => c.name() === word || c.aliases().includes(word))
        : undefined;
    if (sub) {
      command = sub;
      continue;
    }
    position += 1;
  }

  let candidates: Candidate[];
  let completing: Option | Argument | undefined;
  if (pendingOption) {
    completing = pendingOption;
    candidates = await valuesOf(pendingOption, values, globals, current);
  } else if (!operandsOnly && /^--[^=]+=/.test(current)) {
    // --name=value: the option's values, each as the whole word.
    const name = current.slice(0, current.indexOf('='));
    const option = findOption(command, name);
    completing = option;
    const given = current.slice(name.length + 1);
    const found = option && takesValue(option) ? await valuesOf(option, values, globals, given) : [];
    candidates = found.map((c) => ({ ...c, value: `${name}=${c.value}` }));
  } else if (!operandsOnly && current.startsWith('-')) {
    candidates = optionsInScope(command).flatMap((option) =>
      [option.long, option.short]
        .filter((flag): flag is string => flag !== undefined)
        .map((flag) => ({ value: flag, description: summary(option.description) })),
    );
  } else {
    const subcommands = position === 0 ? visibleCommands(command) : [];
    if (subcommands.length > 0) {
      candidates = subcommands.map((sub) => ({ value: sub.name(), description: summary(sub.description()) }));
    } else {
      const args = command.registeredArguments;
      const last = args.at(-1);
      const argument = args[position] ?? (last?.variadic ? last : undefined);
      completing = argument;
      candidates = argument ? await valuesOf(argument, values, globals, current) : [];
      // Before `--`, a value with a leading dash would be read as an option (an id
      // `--yes` from the service skipping the confirmation); `-`, even after it, as standard input.
      candidates = candidates.filter((c) => c.value !== '-' && (operandsOnly || !c.value.startsWith('-')));
    }
  }
  const seen = new Set<string>();
  const matching = candidates.filter((c) => c.value.startsWith(current) && !seen.has(c.value) && seen.add(c.value));
  return isLookedUp(completing) ? sortNaturally(matching, (c) => c.value) : matching;
}

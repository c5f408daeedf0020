import { Argument, Command } from 'commander';
import { complete, type Candidate, type ValueSource } from '../completion/complete.js';
import { completionScript, INSTALL, SHELLS, type Shell } from '../completion/scripts.js';
import { parseProfileName } from '../config/store.js';
import type { Context } from '../context.js';
import { printable } from '../output/text.js';
import { shownUrl } from './config/shared.js';
import { plantId } from './ids.js';
import { examples } from './options.js';

export function completionCommand(ctx: Context): Command {
  return new Command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText('after', `\n${INSTALL}${examples('plants completion bash > ~/.local/share/bash-completion/completions/plants')}`)
    .action((shell: Shell) => {
      ctx.io.stdout.write(completionScript(shell));
    });
}

/** Completion is a convenience: it must answer fast and say nothing when it cannot. */
const LOOKUP_TIMEOUT_SECONDS = 2;

/**
 * `plants __complete -- <words>`: what the completion scripts call. Prints
 * one candidate per line, `value<TAB>description`. Hidden from help.
 */
export function completeCommand(ctx: Context, program: () => Command): Command {
  return new Command('__complete')
    .argument('[words...]')
    .helpOption(false)
    .action(async (words: string[]) => {
      let candidates: Candidate[] = [];
      try {
        candidates = await complete(program(), words.length ? words : [''], lookUp(ctx));
      } catch {
        // Silent on any failure: a shell prompt is no place for an error.
      }
      ctx.io.stdout.write(candidates.flatMap(completionLine).join(''));
    });
}

/**
 * A candidate as the scripts read it, or nothing. Values and descriptions come
 * from the service and go to a terminal: descriptions are shown with control
 * characters escaped; a value that `printable` would change cannot be shown or
 * inserted as the one-line word it is, so it is not offered.
 */
function completionLine({ value, description }: Candidate): string[] {
  if (printable(value) !== value) return [];
  return [`${value}\t${printable(description)}\n`];
}

function lookUp(ctx: Context): ValueSource {
  return async (kind, globals) => {
    if (globals.profile) ctx.flags.profile = parseProfileName(globals.profile);
    if (globals.baseUrl) ctx.flags.baseUrl = globals.baseUrl;
    if (kind === 'profiles') {
      const store = await ctx.config();
      return [...new Set([...store.profileNames(), 'default'])].sort().map((value) => ({
        value,
        description: shownUrl(store.get(value, 'base-url') ?? ''),
      }));
    }
    ctx.flags.timeout = LOOKUP_TIMEOUT_SECONDS;
    ctx.flags.retries = 0;
    const plants = await (await ctx.client()).listPlants();
    return plants.flatMap((plant) => {
      const id = plantId(plant);
      // The shell shows the description on the terminal; the value is inserted as the id, exact.
      return id === undefined ? [] : [{ value: id, description: printable(plant.name) }];
    });
  };
}

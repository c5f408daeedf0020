import { readdirSync, type Dirent } from 'node:fs';
import { Argument, Command } from 'commander';
import { complete, type Candidate, type ValueSource } from '../completion/complete.js';
import { completionScript, INSTALL, SHELLS, type Shell } from '../completion/scripts.js';
import { parseProfileName } from '../config/profile-names.js';
import type { Context } from '../context.js';
import { printable } from '../shared/text.js';
import { shownUrl } from './config/shared.js';
import { lookUpKnownTokens } from './known-tokens.js';
import { plantId } from '../deletion/id-input.js';
import { examples } from './options.js';

interface CompletionOptions {
  shell: Shell;
}

type CompletionRunner = (options: CompletionOptions, ctx: Context) => Promise<void> | void;

/** Which profiles get plant ids: those whose token is read without a prompt (see lookUp). */
const PLANT_IDS = `Plant ids:
  plants delete <Tab> offers ids when the token is in PLANTS_TOKEN, the config
  file, or an unlocked OS keyring (Linux, Windows). Completion never prompts:
  a locked keyring, the macOS Keychain or a token command gives no ids.
`;

export function completionCommand(ctx: Context, run: CompletionRunner = runCompletion): Command {
  return new Command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      `\n${INSTALL}\n${PLANT_IDS}${examples('plants completion bash > ~/.local/share/bash-completion/completions/plants')}`,
    )
    .action(async (shell: Shell) => {
      await run({ shell }, ctx);
    });
}

function runCompletion(options: CompletionOptions, ctx: Context): void {
  ctx.io.stdout.write(completionScript(options.shell));
}

/** Completion is a convenience: it must answer fast and say nothing when it cannot. */
const LOOKUP_TIMEOUT_SECONDS = 2;

/**
 * `plants __complete -- <words>`: what the completion scripts call. Prints
 * one candidate per line, `value<TAB>description`. Hidden from help.
 */
interface CompleteOptions {
  /** The whole command tree, whose commands and options are offered. */
  program: Command;
  /** The words typed so far, the last one being completed. */
  words: string[];
}

type CompleteRunner = (options: CompleteOptions, ctx: Context) => Promise<void>;

export function completeCommand(ctx: Context, program: () => Command, run: CompleteRunner = runComplete): Command {
  return new Command('__complete')
    .argument('[words...]')
    .helpOption(false)
    .action(async (words: string[]) => {
      await run({ program: program(), words: words.length ? words : [''] }, ctx);
    });
}

async function runComplete(options: CompleteOptions, ctx: Context): Promise<void> {
  let candidates: Candidate[] = [];
  let used: Context | undefined;
  try {
    candidates = await complete(
      options.program,
      options.words,
      lookUp(ctx, (lookup) => (used = lookup)),
    );
  } catch {
    // Silent on any failure: a shell prompt is no place for an error.
  } finally {
    await used?.close().catch(() => {});
  }
  ctx.io.stdout.write(candidates.flatMap(completionLine).join(''));
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

/**
 * Values come from a context of their own: the flags on the command line
 * being completed, and a short bound on the request. `onContext` receives it,
 * to be closed.
 */
function lookUp(ctx: Context, onContext: (lookup: Context) => void): ValueSource {
  return async (kind, globals, current) => {
    if (kind === 'plan-files') return planFiles(current);
    const flags = {
      ...ctx.flags,
      ...(globals.profile ? { profile: parseProfileName(globals.profile) } : {}),
      ...(globals.baseUrl ? { baseUrl: globals.baseUrl } : {}),
    };
    if (kind === 'profiles') {
      const store = await ctx.config();
      await lookUpKnownTokens(ctx);
      return [...new Set([...store.profileNames(), 'default'])].map((value) => ({
        value,
        description: shownUrl(store.get(value, 'base-url') ?? ''),
      }));
    }
    // A Tab press never prompts: no token command is run, and the keyring is read only where it is unlocked.
    const lookup = ctx.withFlags({ ...flags, timeout: LOOKUP_TIMEOUT_SECONDS, retries: 0 }, { quiet: true });
    onContext(lookup);
    const plants = await (await lookup.client()).listPlants();
    return plants.flatMap((plant) => {
      const id = plantId(plant);
      // The shell shows the description on the terminal; the value is inserted as the id, exact.
      return id === undefined ? [] : [{ value: id, description: printable(plant.name) }];
    });
  };
}

/**
 * Plan files for `plants apply`: the JSON files and the directories where
 * the word being completed points (`plans/` lists that directory), as the
 * word's own spelling of the path goes on. Nothing is read but the names.
 */
function planFiles(current: string): Candidate[] {
  const slash = current.lastIndexOf('/');
  const dir = slash === -1 ? '' : current.slice(0, slash + 1);
  let entries: Dirent[];
  try {
    // node:fs/promises would load readline and more at start-up for every command: the names are few.
    entries = readdirSync(dir === '' ? '.' : dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const hidden = !current.slice(slash + 1).startsWith('.');
  return entries
    .filter((entry) => !(hidden && entry.name.startsWith('.')))
    .filter((entry) => entry.isDirectory() || (entry.isFile() && entry.name.endsWith('.json')))
    .map((entry) => ({ value: `${dir}${entry.name}${entry.isDirectory() ? '/' : ''}`, description: '' }))
    .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

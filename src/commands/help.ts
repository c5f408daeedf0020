import { Command, CommanderError } from 'commander';
import { UsageError } from '../shared/errors.js';

interface HelpOptions {
  /** The command's path below the one that has this help command: `['config', 'set']`. */
  names: string[];
}

type HelpRunner = (options: HelpOptions, parent: Command) => void;

/**
 * `help [command...]`, for the program and each group: the help of a
 * command at any depth (`plants help config set`), as its --help shows it.
 * commander's own help command looks up one name only, and answers a name
 * it does not know with the whole help instead of an error. Built once the
 * tree is (cli.ts, configureAll): it needs its parent's subcommands.
 */
export function helpCommand(parent: Command, run: HelpRunner = runHelp): Command {
  return new Command('help')
    .description('Display help for a command')
    .argument('[command...]', 'the command, e.g. config set')
    .action((names: string[]) => {
      run({ names }, parent);
    });
}

function runHelp({ names }: HelpOptions, parent: Command): void {
  let command = parent;
  for (const [i, name] of names.entries()) {
    const sub = command.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
    if (!sub) throw unknownCommand(command, names.slice(0, i), name);
    command = sub;
  }
  // Prints to stdout and ends the run with exit 0, as --help does.
  command.help();
}

/**
 * The usage error for `help` of a name `command` does not have, with
 * commander's suggestion (the one a mistyped command gets), prefixed like
 * the name with the path typed before it: `unknown command 'config sett'
 * (Did you mean config set?)`.
 */
function unknownCommand(command: Command, path: string[], name: string): UsageError {
  const prefix = path.map((part) => `${part} `).join('');
  const suggested = suggestion(command, name)?.map((candidate) => prefix + candidate);
  const hint = suggested
    ? `Did you mean ${suggested.length > 1 ? 'one of ' : ''}${suggested.join(', ')}?`
    : `see ${[...ancestry(command)].join(' ')} --help`;
  return new UsageError(`unknown command '${prefix}${name}' (${hint})`);
}

/**
 * commander's suggestions for `name` among the visible subcommands of
 * `command`. commander does not export its edit-distance matcher, so a
 * throw-away command with the same subcommand names is asked to parse the
 * name, and its unknown-command error read.
 */
function suggestion(command: Command, name: string): string[] | undefined {
  const probe = new Command()
    .exitOverride()
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .configureOutput({ writeErr: () => {}, outputError: () => {} });
  for (const sub of command.createHelp().visibleCommands(command)) {
    probe.addCommand(new Command(sub.name()).aliases(sub.aliases()));
  }
  try {
    probe.parse([name], { from: 'user' });
  } catch (err) {
    const match = err instanceof CommanderError ? /\(Did you mean (?:one of )?(.+)\?\)/.exec(err.message) : null;
    if (match) return match[1]!.split(', ');
  }
  return undefined;
}

/** `plants config`: the command's name and its ancestors'. */
function* ancestry(command: Command): Generator<string> {
  if (command.parent) yield* ancestry(command.parent);
  yield command.name();
}

/**
 * Text of the help's own sections (examples, exit codes, environment),
 * wrapped as commander wraps the rest: at `width`, each line's text going
 * on under where it began (after its name column), breaking at spaces only.
 */
export function wrapHelpText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      // The column the text starts at: after the name and the run of spaces that follows it, else after the indent.
      const column = /^(\s*\S+\s{2,})\S/.exec(line)?.[1]!.length ?? /^\s*/.exec(line)![0].length;
      if (column >= width - 20) return line;
      const words = line.slice(column).split(' ');
      const lines: string[] = [];
      let current = line.slice(0, column);
      for (const word of words) {
        const next = current.trim() === '' || current.length === column ? `${current}${word}` : `${current} ${word}`;
        if (next.length > width && current.length > column) {
          lines.push(current);
          current = `${' '.repeat(column)}${word}`;
        } else {
          current = next;
        }
      }
      lines.push(current);
      return lines.join('\n');
    })
    .join('\n');
}

/** The program's help ends with these sections (cli.ts), wrapped by wrapHelpText. */
export const HELP_FOOTER = `
Examples:
  plants config set base-url https://plants.example.com/api
  plants auth login
  plants list --tag seedling
  plants delete 42
  plants prune --tag seedling --dry-run
  plants prune --tag seedling --plan plan.json
  plants apply plan.json --dry-run
  plants history --since 24h
  plants api /plants/7
  plants completion bash --help

Exit codes:
  0    success
  1    the request failed (service error, network, bad response);
       config get of an unset key; the output could not be written (a full disk)
  2    refused: a usage error (bad flag, argument or configuration; --yes
       missing; prompt declined), a cap or protection, a plan's checks,
       a journal that cannot be written
  3    not found (delete of an id the service does not have;
       api: a 404 with the Error object, or a 410, to one resource)
  4    authentication (401/403 from the service, or no token)
  5    apply: a planned plant changed since the plan, so it was not deleted
  129  stopped by SIGHUP (a closed terminal), as by Ctrl-C
  130  interrupted (Ctrl-C)
  143  stopped by SIGTERM (a cancelled CI job), as by Ctrl-C

Environment:
  PLANTS_PROFILE       profile to use (overrides config use)
  PLANTS_BASE_URL      base URL of the service (overrides the config file)
  PLANTS_TOKEN         bearer token (overrides the config file)
  PLANTS_CONFIG_DIR    directory of config.json
                       (default: $XDG_CONFIG_HOME/plants, else ~/.config/plants)
  PLANTS_STATE_DIR     directory of the deletion journal, deletions.jsonl
                       (default: $XDG_STATE_HOME/plants,
                       else ~/.local/state/plants)
  PLANTS_JOURNAL       off to record no deletions (as --no-journal)
  PLANTS_TIMEOUT       seconds per attempt (default 30)
  PLANTS_RETRIES       retries of a failed request (default 2)
  PLANTS_DEBUG         1 to log requests and responses to stderr
  PLANTS_KEYRING       off to keep tokens out of the OS keyring (auth login uses
                       the file), on for the keyring or nothing (no fallback)
  PLANTS_TOKEN_COMMAND_TIMEOUT, PLANTS_KEYRING_TIMEOUT
                       seconds a token command, a keyring call may take
                       (default 60)
  TRACEPARENT          W3C trace context, sent on as traceparent
  PLANTS_CODE_CACHE    0 to keep no compiled code in $XDG_CACHE_HOME/plants
                       (default: on; else ~/.cache/plants)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                       proxy to use, and hosts to reach directly (either case)
  NODE_EXTRA_CA_CERTS  PEM file of extra CA certificates (a private CA)
  NO_COLOR             disable colour; FORCE_COLOR=1 forces it
`;

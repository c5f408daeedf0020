import { Command, CommanderError } from 'commander';
import { authCommand } from './commands/auth/index.js';
import { configCommand } from './commands/config.js';
import { deleteCommand } from './commands/delete.js';
import { listCommand } from './commands/list.js';
import { createContext, type Context, type ContextOptions } from './context.js';
import { CliError, ExitCode } from './errors.js';
import { systemIOStreams } from './output/iostreams.js';
import { failure } from './output/messages.js';
import { excerpt } from './output/text.js';
import { VERSION } from './version.js';

const FOOTER = `
Exit codes:
  0    success
  1    the request failed (service error, network, bad response); config get of an unset key
  2    usage error (bad flag, argument or configuration; --yes missing; prompt declined)
  3    not found (delete of an id the service does not have)
  4    authentication (401/403 from the service, or no token)
  130  interrupted

Environment:
  PLANTS_BASE_URL    base URL of the service (overrides the config file)
  PLANTS_TOKEN       bearer token (overrides the config file)
  PLANTS_CONFIG_DIR  directory of config.json
                     (default: $XDG_CONFIG_HOME/plants, else ~/.config/plants)
  NO_COLOR           disable colour
`;

/** The command tree. Building it touches neither disk nor network. */
export function buildProgram(ctx: Context): Command {
  const program = new Command('plants')
    .description('Manage the plants of a plant store service: list them, delete them.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .option('--base-url <url>', 'base URL of the service (overrides PLANTS_BASE_URL and the config file)')
    .addCommand(listCommand(ctx))
    .addCommand(deleteCommand(ctx))
    .addCommand(configCommand(ctx))
    .addCommand(authCommand(ctx))
    .addHelpText('after', FOOTER)
    .hook('preAction', (thisCommand) => {
      const { baseUrl } = thisCommand.opts<{ baseUrl?: string }>();
      ctx.flags.baseUrl = baseUrl;
    });
  configureAll(program, ctx);
  return program;
}

/** Settings commander does not pass on to commands added with addCommand. */
function configureAll(command: Command, ctx: Context): void {
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      // Errors are printed once, by report().
      outputError: () => {},
    });
  for (const sub of command.commands) configureAll(sub, ctx);
}

/** Run the CLI with the given arguments; returns the exit code. The only place errors become exit codes. */
export async function main(argv: readonly string[], options: ContextOptions): Promise<number> {
  const ctx = createContext(options);
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    return report(err, ctx);
  } finally {
    await ctx.close();
  }
}

async function report(err: unknown, ctx: Context): Promise<number> {
  if (err instanceof CommanderError) {
    // --help and --version end this way too.
    if (err.exitCode === 0) return ExitCode.ok;
    if (err.code === 'commander.help') return ExitCode.usage;
    const text = err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    await failure(ctx.io, /Did you mean/.test(text) ? text : `${text} (see --help)`);
    return ExitCode.usage;
  }
  if (err instanceof CliError) {
    if (err.message) await failure(ctx.io, ctx.redact(err.message));
    return err.exitCode;
  }
  // A bug: say so in one line; the stack helps nobody at the terminal.
  const message = err instanceof Error ? err.message : String(err);
  await failure(ctx.io, `unexpected error: ${ctx.redact(excerpt(message, 500))}`);
  return ExitCode.failure;
}

/** The process entry point. */
export async function run(): Promise<void> {
  // A reader that goes away (`plants list | head -1`) is not an error: writes
  // then end quietly (see writeOut) and the command keeps its exit code.
  process.stdout.on('error', () => {});
  const io = systemIOStreams();
  process.exitCode = await main(process.argv.slice(2), { io, env: process.env });
}

import { Command, CommanderError, Option } from 'commander';
import { apiCommand } from './commands/api/index.js';
import { authCommand } from './commands/auth/index.js';
import { completeCommand, completionCommand } from './commands/completion.js';
import { configCommand } from './commands/config/index.js';
import { completeWith } from './completion/hints.js';
import { lookUpTokensAtHand } from './commands/known-tokens.js';
import { maskSecrets } from './secrets/registry.js';
import { deleteCommand } from './commands/delete.js';
import { DoubleDashCommand } from './commands/double-dash.js';
import { HELP_FOOTER, helpCommand, wrapHelpText } from './commands/help.js';
import { historyCommand } from './commands/history.js';
import { applyCommand } from './commands/apply.js';
import { listCommand } from './commands/list.js';
import { pruneCommand } from './commands/prune.js';
import { parseRetries, parseSize, parseTimeout } from './shared/values.js';
import { parseProfileName } from './config/profile-names.js';
import { createContext, type Context, type ContextOptions, type GlobalFlags } from './context.js';
import { CliError, ExitCode, OutputError, signalExitCode, type ErrorCode, type StopSignal } from './shared/errors.js';

const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
import { formatWriter, isOutputFormat } from './output/format-writers.js';
import { isTerminal, systemIOStreams } from './output/iostreams.js';
import { writeToFd } from './output/write-now.js';
import { failure } from './output/messages.js';
import { excerpt, printable } from './shared/text.js';
import { VERSION } from './shared/version.js';
import { scanArgv } from './startup/argv.js';

/** The commands, in the order help lists them; the hidden `__complete` follows (it walks the whole tree). */
const COMMANDS: readonly ((ctx: Context) => Command)[] = [
  listCommand,
  deleteCommand,
  pruneCommand,
  applyCommand,
  historyCommand,
  apiCommand,
  configCommand,
  authCommand,
  completionCommand,
];

/** The command tree. Building it touches neither disk nor network. */
export function buildProgram(ctx: Context): Command {
  const program: Command = new DoubleDashCommand('plants')
    .description('Manage the plants of a plant store service: list them, delete them.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'display help for command')
    .addOption(
      completeWith(
        new Option(
          '--profile <name>',
          "use this profile's settings (default: PLANTS_PROFILE, else as set by config use)",
        ).argParser((raw) => parseProfileName(raw)),
        'profiles',
      ),
    )
    .option('--base-url <url>', 'base URL of the service (overrides PLANTS_BASE_URL and the config file)')
    .option(
      '--timeout <seconds>',
      'seconds each attempt of a request may take (default: PLANTS_TIMEOUT, else 30)',
      (raw) => parseTimeout(raw),
    )
    .option('--retries <n>', 'retries of a failed request, 0-10 (default: PLANTS_RETRIES, else 2)', (raw) =>
      parseRetries(raw),
    )
    .option(
      '--max-response-size <size>',
      'refuse larger responses, in bytes or e.g. 512K, 64MiB (default: 256MiB)',
      parseSize,
    )
    .option('--debug', 'log each request and response to stderr, the token masked (also PLANTS_DEBUG=1)')
    .option('--no-color', 'no colour, even on a terminal (also NO_COLOR=1; FORCE_COLOR=1 forces it)')
    .addHelpText('after', () => wrapHelpText(HELP_FOOTER, ctx.io.terminalWidth('stdout') ?? 80))
    .hook('preAction', (thisCommand) => {
      if (!thisCommand.opts<{ color: boolean }>().color) ctx.io.disableColor();
    });
  for (const make of COMMANDS) program.addCommand(make(ctx));
  program.addCommand(
    completeCommand(ctx, () => program),
    { hidden: true },
  );
  configureAll(program, ctx);
  return program;
}

/**
 * Settings commander does not pass on to commands added with addCommand;
 * and the program and each group get a help command (help.ts).
 */
function configureAll(command: Command, ctx: Context): void {
  if (command.commands.length > 0) command.helpCommand(false).addCommand(helpCommand(command));
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    // Each command's help lists the global options too.
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => ctx.io.write('stdout', text),
      writeErr: (text) => ctx.io.write('stderr', text),
      // The width the footer is wrapped at (wrapHelpText), COLUMNS included: one measure for all of the help.
      getOutHelpWidth: () => ctx.io.terminalWidth('stdout') ?? 80,
      getErrHelpWidth: () => ctx.io.terminalWidth('stderr') ?? 80,
      // Colour as everywhere else (NO_COLOR, --no-color, FORCE_COLOR), and no stream made to ask.
      getOutHasColors: () => ctx.io.colorEnabled('stdout'),
      getErrHasColors: () => ctx.io.colorEnabled('stderr'),
      // Errors are printed once, by reportError().
      outputError: () => {},
    });
  for (const sub of command.commands) configureAll(sub, ctx);
}

/** Run the CLI with the given arguments; returns the exit code. The only place errors become exit codes. */
export async function main(
  argv: readonly string[],
  options: ContextOptions,
  { exiting = false }: { exiting?: boolean } = {},
): Promise<number> {
  // The context reads the global flags once, when a command first needs them: after parsing.
  const ctx = createContext({ ...options, flags: () => globalFlags(program) });
  const program = buildProgram(ctx);
  try {
    try {
      // `plants` alone is a request for help, as in gh and kubectl: on stdout, exit 0.
      if (argv.length === 0) program.outputHelp();
      else await program.parseAsync([...argv], { from: 'user' });
    } catch (err) {
      // --help and --version end this way too: done, as far as the command goes.
      if (!(err instanceof CommanderError && err.exitCode === 0)) {
        await lookUpTokensAtHand(ctx);
        return reportError(err, ctx, jsonRequested(argv));
      }
    }
    // Output that a write could not deliver (a full disk), whichever way it went (help included), fails the run.
    const unwritten = await ctx.io.stdoutFailure();
    return unwritten ? reportError(new OutputError(unwritten), ctx, jsonRequested(argv)) : ExitCode.ok;
  } finally {
    await ctx.close({ exiting });
  }
}

/** The global options as parsed, --no-color aside (the io object has it). */
function globalFlags(program: Command): GlobalFlags {
  const { color: _color, ...flags } = program.opts<GlobalFlags & { color: boolean }>();
  return flags;
}

/** Whether the run asked for JSON output, so a failure also gets a JSON error line. */
function jsonRequested(argv: readonly string[]): boolean {
  const { doubleDash } = scanArgv(argv);
  for (let i = 0; i < (doubleDash === -1 ? argv.length : doubleDash); i += 1) {
    const arg = argv[i]!;
    if (arg === '--json') return true;
    let format: string | undefined;
    if (arg === '-o' || arg === '--output') format = argv[i + 1];
    else if (arg.startsWith('--output=')) format = arg.slice('--output='.length);
    else if (/^-o[^-]/.test(arg)) format = arg.slice(2);
    const normalised = format?.trim().toLowerCase() ?? '';
    if (isOutputFormat(normalised) && formatWriter(normalised).shows === 'json') return true;
  }
  return false;
}

/**
 * Print the error (and its JSON line), return its exit code. The message is
 * masked whole before it is cut or escaped (a cut token escapes the writer).
 */
function reportError(err: unknown, ctx: Context, json: boolean): number {
  let exitCode: number;
  let code: ErrorCode;
  let status: number | null = null;
  let requestId: string | null = null;
  let message: string;
  if (err instanceof CommanderError) {
    exitCode = ExitCode.usage;
    code = 'usage';
    message = printable(maskSecrets(err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')));
    if (err.code === 'commander.help') message = 'a command is required';
    else failure(ctx.io, /Did you mean/.test(message) ? message : `${message} (see --help)`);
  } else if (err instanceof CliError) {
    exitCode = err.exitCode;
    code = err.code;
    status = err.status;
    requestId = err.requestId;
    // Printable for the JSON error line too, which a terminal may show.
    message = printable(maskSecrets(err.summary));
    if (err.message) failure(ctx.io, message);
  } else {
    // A bug: say so in one line; the stack helps nobody at the terminal.
    exitCode = ExitCode.failure;
    code = 'internal';
    message = `unexpected error: ${excerpt(maskSecrets(err instanceof Error ? err.message : String(err)), 500)}`;
    failure(ctx.io, message);
  }
  if (json) ctx.io.stderr.write(`${JSON.stringify({ error: { code, status, message, request_id: requestId } })}\n`);
  return exitCode;
}

/** The process entry point. */
export async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  const signals = handleSignals((signal, summary = 'interrupted') => {
    // Nothing is set up to stop gracefully, or this is the second signal: stop now. On a terminal
    // the message starts a line of its own (after the ^C it echoed); in a log, no blank line.
    let last = `${isTerminal(2) ? '\n' : ''}plants: ${summary}\n`;
    if (jsonRequested(argv)) {
      last += `${JSON.stringify({ error: { code: 'interrupted', status: null, message: summary, request_id: null } })}\n`;
    }
    writeToFd(2, last);
    process.exit(signalExitCode(signal));
  });
  try {
    // --no-color is looked for before parsing too, so parse errors obey it.
    const { doubleDash } = scanArgv(argv);
    const io = systemIOStreams(
      process.env,
      argv.slice(0, doubleDash === -1 ? argv.length : doubleDash).includes('--no-color'),
    );
    // The process ends when main() returns: its idle connections are left for it to close.
    process.exitCode = await main(argv, { io, env: process.env, onInterrupt: signals.register }, { exiting: true });
  } finally {
    signals.dispose();
  }
}

/**
 * SIGINT, SIGTERM (how CI cancels a job) and SIGHUP (a closed terminal) for
 * the whole run, alike. The first goes to whatever a command registered (a
 * bulk delete stops starting new requests); with nothing registered, or the
 * second time, the registered quit handlers write what must not be lost
 * (synchronously, with io.writeNow), then `stopNow` ends the run with the
 * exit code of the signal that ended it.
 */
function handleSignals(stopNow: (signal: StopSignal, summary?: string) => void): {
  register(this: void, onFirst: (signal: StopSignal) => void, onQuit?: () => string): () => void;
  dispose(): void;
} {
  const listeners = new Map<(signal: StopSignal) => void, (() => string) | undefined>();
  let received = 0;
  const handle = (signal: StopSignal) => {
    received += 1;
    if (received > 1 || listeners.size === 0) {
      let summary: string | undefined;
      try {
        for (const onQuit of listeners.values()) summary = onQuit?.() ?? summary;
      } finally {
        stopNow(signal, summary);
      }
    } else for (const listener of listeners.keys()) listener(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handle);
  return {
    register(onFirst, onQuit) {
      listeners.set(onFirst, onQuit);
      return () => listeners.delete(onFirst);
    },
    dispose() {
      for (const signal of STOP_SIGNALS) process.off(signal, handle);
    },
  };
}

/**
 * The one scan of the command line made before (or beside) commander's
 * parse: where the command is (the code cache names its data after it),
 * whether the run asks for the version alone (answered before the command
 * tree loads, src/main.ts), and where `--` ends the options (the words
 * after it are operands, src/commands/double-dash.ts). Part of the entry
 * bundle: it loads nothing.
 */

/**
 * The global options that take a value as the next word (src/cli.ts; a
 * test checks the two agree): their values are not commands.
 */
export const GLOBAL_VALUE_OPTIONS: readonly string[] = [
  '--profile',
  '--base-url',
  '--timeout',
  '--retries',
  '--max-response-size',
];

/** Whether `args[at]` is an option that takes the word after it as its value. */
export type TakesValue = (args: readonly string[], at: number) => boolean;

const globalTakesValue: TakesValue = (args, at) => GLOBAL_VALUE_OPTIONS.includes(args[at]!);

export interface ArgvScan {
  /** The index of the first operand before `--` (for the program's words: the command), or -1. */
  firstOperand: number;
  /** The index of the `--` that ends the options, or -1. */
  doubleDash: number;
}

/**
 * Where the first operand and the end of options are in `args`, the values
 * of options that take one (`takesValue`; by default the global ones)
 * skipped: a value is neither an operand nor the end of options.
 */
export function scanArgv(args: readonly string[], takesValue: TakesValue = globalTakesValue): ArgvScan {
  let firstOperand = -1;
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at]!;
    if (arg === '--') return { firstOperand, doubleDash: at };
    if (takesValue(args, at)) at += 1;
    else if (firstOperand === -1 && !arg.startsWith('-')) firstOperand = at;
  }
  return { firstOperand, doubleDash: -1 };
}

/** Where the command is in the program's `args`: its index, or -1 without one. */
export function commandAt(args: readonly string[]): number {
  return scanArgv(args).firstOperand;
}

/** How many words follow the `--` that ends the options in `args` (0 without one). */
export function wordsAfterDoubleDash(args: readonly string[], takesValue?: TakesValue): number {
  const { doubleDash } = scanArgv(args, takesValue);
  return doubleDash === -1 ? 0 : args.length - doubleDash - 1;
}

/** `plants --version` (or `-V`) and nothing else: scripts checking what is installed. */
export function asksVersionOnly(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === '--version' || args[0] === '-V');
}

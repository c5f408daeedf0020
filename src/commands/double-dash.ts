import { Command, type Option } from 'commander';
import { wordsAfterDoubleDash, type TakesValue } from '../startup/argv.js';

/**
 * A command that remembers how many of the words it parsed came after `--`,
 * the end of options: there every word is an operand, `-` included, which
 * before `--` means standard input (`plants delete --yes -- -` deletes the
 * plant whose id is `-`). Commander drops the `--` itself, in the program when
 * no option of a command comes before it, else in the command; so the
 * program and the commands that take ids are of this kind, and each counts
 * what it saw.
 */
export class DoubleDashCommand extends Command {
  /** Words after `--` in the arguments this command parsed, 0 when there was none. */
  wordsAfterDoubleDash = 0;

  override parseOptions(args: string[]): { operands: string[]; unknown: string[] } {
    const parsed = super.parseOptions(args);
    // With an unknown option before it, the `--` was passed on to the command below, which counts it.
    this.wordsAfterDoubleDash =
      parsed.unknown.length > 0 ? 0 : wordsAfterDoubleDash(args, optionTakesValue(this.options));
    return parsed;
  }
}

/** As commander reads them: a required value is the next word whatever it is; an optional one unless it looks like an option. */
function optionTakesValue(options: readonly Option[]): TakesValue {
  return (args, at) => {
    const option = options.find((candidate) => candidate.long === args[at] || candidate.short === args[at]);
    const next = args[at + 1];
    return Boolean(
      option?.required || (option?.optional && next !== undefined && !(next.length > 1 && next.startsWith('-'))),
    );
  };
}

/**
 * Of a command's operands, those before `--` (where `-` is a marker) and
 * those after it (every one literal): the words after `--` are always the
 * last operands.
 */
export function splitAtDoubleDash(operands: readonly string[], command: Command): [string[], string[]] {
  let after = 0;
  for (let at: Command | null = command; at; at = at.parent) {
    if (at instanceof DoubleDashCommand) after = Math.max(after, at.wordsAfterDoubleDash);
  }
  const literal = Math.min(after, operands.length);
  return [operands.slice(0, operands.length - literal), operands.slice(operands.length - literal)];
}

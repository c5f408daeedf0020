// The commander tree that prints --help (dist/cli.cjs's buildProgram), read
// by the scripts that turn it into other forms (man.js: the man page;
// docs.js: the generated parts of docs/commands.md), so that none can drift
// from --help.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A context for building the tree. Building reads nothing from it; anything that tried would be a bug here.
 * Rendering the help's own sections asks the terminal's width only: none here, so nothing is wrapped.
 */
export function treeContext() {
  return new Proxy(
    { io: { terminalWidth: () => Number.MAX_SAFE_INTEGER } },
    {
      get: (target, key) => {
        if (key === 'io') return target.io;
        throw new Error(`the command tree read ctx.${String(key)} while being built`);
      },
    },
  );
}

/** The program as the built CLI makes it (run `npm run build` first). */
export function builtProgram() {
  const { buildProgram } = createRequire(import.meta.url)(`${root}dist/cli.cjs`);
  return buildProgram(treeContext());
}

/** The subcommands a reader is shown: the visible ones, without `help`. */
export function subcommands(command) {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => sub.name() !== 'help');
}

/** The text a command's addHelpText('after', …) adds to its --help. */
export function afterHelp(command) {
  let text = '';
  command.emit('afterHelp', { error: false, command, write: (chunk) => (text += chunk) });
  return text.replace(/^\n+/, '').trimEnd();
}

/** Split "Examples:\n  …\n\nExit codes:\n  …" into [title, body] pairs. */
export function sections(text) {
  const found = [];
  for (const line of text.split('\n')) {
    const title = /^(\S.*):$/.exec(line);
    if (title) found.push([title[1], []]);
    else if (found.length > 0) found.at(-1)[1].push(line);
  }
  return found.map(([title, lines]) => [title, lines.join('\n').replace(/\n+$/, '')]);
}

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Where each folder of src/ may not import from (docs/architecture.md):
 * dependencies point down, cli → commands → (deletion, api, config, output)
 * → (http, secrets) → shared. `types` says whether `import type` is allowed
 * across the line: not for shared/, http/ and deletion/, whose edges hold
 * for types too.
 */
const ABOVE = ['commands', 'completion', 'context', 'cli', 'main', 'server'];
const LAYERS = {
  shared: { forbidden: ['api', 'config', 'deletion', 'http', 'output', 'secrets', 'startup', ...ABOVE], types: false },
  secrets: { forbidden: ['api', 'config', 'deletion', 'http', 'output', 'startup', ...ABOVE], types: false },
  http: { forbidden: ['api', 'config', 'deletion', 'output', ...ABOVE], types: false },
  api: { forbidden: ['config', 'deletion', 'output', ...ABOVE], types: true },
  config: { forbidden: ['api', 'deletion', 'http', 'output', ...ABOVE], types: true },
  output: { forbidden: ['api', 'config', 'deletion', 'http', ...ABOVE], types: true },
  deletion: { forbidden: ['output', ...ABOVE], types: false },
  startup: { forbidden: ['api', 'config', 'deletion', 'http', 'output', 'secrets', ...ABOVE], types: false },
};
/** The command families with a folder of their own: none imports another's modules. */
const COMMAND_FOLDERS = ['api', 'auth', 'config'];

function restrict(files, regex, allowTypeImports, message) {
  return {
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex, allowTypeImports, message }] }],
    },
  };
}

/** One rule per layer, one per command folder. */
function layerRules() {
  const layers = Object.entries(LAYERS).map(([layer, { forbidden, types }]) =>
    restrict(
      [`src/${layer}/**/*.ts`],
      // From src/<layer>/x.ts or any depth below it: a path that climbs out of src/<layer> into a forbidden name.
      `^(\\.\\./)+(${forbidden.join('|')})(/|\\.js$)`,
      types,
      `src/${layer} may not import from ${forbidden.join(', ')}${types ? ' (import type aside)' : ', not even a type'}; see docs/architecture.md.`,
    ),
  );
  const commands = COMMAND_FOLDERS.map((folder) =>
    restrict(
      [`src/commands/${folder}/**/*.ts`],
      `^\\.\\./(?!${folder}/)[\\w-]+/`,
      false,
      `src/commands/${folder} may not import another command's folder: move what both need below commands/ (docs/architecture.md).`,
    ),
  );
  return [...layers, ...commands];
}

/**
 * No source file over 300 lines and no function over 80, counted as `wc -l`
 * counts: blank lines and comments included.
 */
const SIZES = {
  files: ['src/**/*.ts'],
  rules: {
    'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
    'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }],
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'reports/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
    rules: {
      // `const { [key]: _removed, ...rest } = object` drops a key without a copy-and-delete.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  // Layers (docs/architecture.md): dependencies point down. api, config and
  // output know nothing of each other, of commands or of the context (types
  // aside); shared helpers know no layer at all.
  ...layerRules(),
  SIZES,
  {
    // Scripts and the server's entry point are allowed to talk to the console.
    files: ['scripts/**', 'bin/**', 'src/server/main.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // The executables are CommonJS (bin/package.json): CommonJS starts faster.
    files: ['bin/**'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const LAYERS = ['api', 'config', 'journal', 'output', 'shared'];
const ABOVE = ['commands', 'completion', 'context', 'cli', 'main', 'server'];

/** One rule per layer: no imports from the other layers or from above (import type allowed). */
function layerRules() {
  return LAYERS.map((layer) => {
    const forbidden = [...LAYERS.filter((other) => other !== layer && other !== 'shared'), ...ABOVE];
    return {
      files: [`src/${layer}/**/*.ts`],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `^\\.\\./(${forbidden.join('|')})(/|\\.js$)`,
                allowTypeImports: true,
                message: `src/${layer} imports only from itself, src/shared and the top-level helpers (import type aside); see docs/architecture.md.`,
              },
            ],
          },
        ],
      },
    };
  });
}

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

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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

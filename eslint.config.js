// Lint for the gateway (server/, tests/, bench/) and the back-office (web/src). Formatting is Prettier's job (eslint-config-prettier turns off the style rules).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['gen/**', 'node_modules/**', 'web/node_modules/**', 'web/dist/**', '.node24/**', 'coverage/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // Unused names are bugs; a leading underscore marks a parameter kept for an interface's shape.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Provider bodies are untyped JSON at the edge; `any` is allowed there but visible in review.
      '@typescript-eslint/no-explicit-any': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', module: 'writable', require: 'readonly', __dirname: 'readonly' } },
  },
);

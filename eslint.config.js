// ESLint (flat config): ESLint's and typescript-eslint's recommended rules over flowguard's own
// code. Not type-aware (that would type-check the project a second time; `npm run typecheck` does
// it once). Formatting is Prettier's (.prettierrc.json): `npm run lint` runs `format:check` after ESLint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'coverage/',
      '.bench/',
      // Schemas, lists and hostile code written to be checked or attacked, not flowguard's code.
      'schemas/',
      'shared-lists/',
      'test/fixtures/',
      // Written by `npm run generate` (Ajv's standalone code); the generator is linted.
      '**/*.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore names what is bound only to be left out (`const { file: _file, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // flowguard matches control characters on purpose: to escape them before a terminal or a log sees them.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['test/**'],
    rules: {
      // Expected output is written as it is printed, columns of spaces included.
      'no-regex-spaces': 'off',
      // Tests read parsed documents whose shape is what they assert.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
);

/**
 * ESLint runs only typescript-eslint's type-aware rules, the ones Biome (biome.jsonc) cannot have
 * because they need the TypeScript program: a promise nobody awaits or catches, a promise passed
 * where a plain value or a void callback is expected, `await` on what is not a thenable, a switch
 * over a union that misses a member. Everything else (formatting, the syntactic rules) is Biome's,
 * so the two never disagree. See docs/conventions.md.
 */
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Plain .js/.mjs files are outside the TypeScript program (no allowJs): Biome lints them.
  { ignores: ['dist/', 'reports/', 'fixtures/', 'scratch/', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // tsconfig.json's program (vitest.e2e.config.ts is in it through vitest.config.ts, which it imports).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    // The tree's eslint-disable comments name rules this file does not turn on (the tree was kept
    // ready for them); they are not errors.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // Promises: the bugs no test sees until a run hangs or a failure is lost.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      // Types the compiler accepts but that are almost always a mistake.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-array-delete': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/restrict-plus-operands': 'error',
      '@typescript-eslint/no-unsafe-unary-minus': 'error',
      '@typescript-eslint/no-unsafe-enum-comparison': 'error',
      '@typescript-eslint/no-duplicate-type-constituents': 'error',
      '@typescript-eslint/no-redundant-type-constituents': 'error',
    },
  },
);

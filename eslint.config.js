// ESLint (flat config, `npm run lint`, in `npm test`): @eslint/js's and typescript-eslint's recommended
// rules over the kit's code. Not the type-checked presets: they build the TypeScript program again,
// too slow beside tsc (which `npm test` runs anyway). No rule about layout: prettier formats
// (eslint-config-prettier, last, turns off any that would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Node's globals, for the plain JavaScript files (TypeScript files have @types/node).
const node = Object.fromEntries(
  `AbortController AbortSignal Blob Buffer FormData Headers Request Response TextDecoder TextEncoder URL URLSearchParams
  clearImmediate clearInterval clearTimeout console crypto fetch globalThis process queueMicrotask setImmediate
  setInterval setTimeout structuredClone`
    .split(/\s+/)
    .map((name) => [name, 'readonly']),
);

// Unused names: a leading _ marks one unused on purpose (tsc's convention); `...rest` may drop its siblings.
const unused = {
  args: 'after-used',
  argsIgnorePattern: '^_',
  varsIgnorePattern: '^_',
  caughtErrorsIgnorePattern: '^_',
  destructuredArrayIgnorePattern: '^_',
  ignoreRestSiblings: true,
};

export default defineConfig(
  // built, generated or data (vectors/: YAML and JSON Schemas); node_modules/ and .git/ are ignored anyway
  globalIgnores(['dist/', 'coverage/', 'reports/', 'vectors-json/', 'vectors/', '.scratch/']),
  {
    files: ['**/*.{ts,mts,js,mjs,cjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The kit is about bytes: header values, multipart parameters, XML and HTML escapes match control
      // characters on purpose.
      'no-control-regex': 'off',
      // Regexes in tests match printed text, whose runs of spaces read best as printed.
      'no-regex-spaces': 'off',
      '@typescript-eslint/no-unused-vars': ['error', unused],
      // A let a closure reads before its one assignment (a server's handler, the port known later) stays a let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // TypeScript files: tsc's noUnusedLocals and noUnusedParameters find unused names (tsconfig.json,
    // bench/tsconfig.json), and count a name a TSDoc {@link} cites as used, which this rule does not.
    files: ['**/*.{ts,mts}'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' },
    },
  },
  prettier,
);

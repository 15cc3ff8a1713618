import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import ClosingLineReporter from './suites/_support/closing-line-reporter.js';

/**
 * Test files that run in a process of their own: one that replaces modules (vi.mock) needs a fresh module
 * cache; one that loads TypeScript's compiler would leave its 9 MB in a shared worker, where V8 counts its
 * every function again after each later file for the coverage (about 10 s of the suite's time).
 * (test/layers/layers.test.ts runs dependency-cruiser in child processes: it loads neither, and shares.)
 */
const ISOLATED = ['test/reports/write-failure.test.ts', 'test/docs/examples.test.ts', 'test/docs/api.test.ts'];

export default defineConfig({
  test: {
    setupFiles: ['suites/_support/fast-check-setup.ts'],
    globalSetup: ['suites/_support/build-dist.ts'],
    // vitest keeps one core free by default: on the 2-core CI machine that means one worker
    maxWorkers: Math.max(2, availableParallelism()),
    // every pgv2kit run in the kit's own tests holds each property to 20 inputs from seed 1 (the CLI's
    // PGV2KIT_PROPERTIES and PGV2KIT_SEED): the same inputs every run
    env: { PGV2KIT_PROPERTIES: '20', PGV2KIT_SEED: '1' },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default', new ClosingLineReporter()],
    // Test files share their workers' module cache (not isolated): the kit's modules are loaded
    // once per worker, not once per file — import time was 40 of the suite's 100 s. A file that
    // replaces a module (vi.mock) runs isolated, in its own project.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          isolate: false,
          include: ['suites/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...ISOLATED, '**/node_modules/**'],
        },
      },
      { extends: true, test: { name: 'isolated', isolate: true, include: [...ISOLATED] } },
    ],
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/index.ts', 'src/**/types.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90, branches: 90 },
    },
  },
});

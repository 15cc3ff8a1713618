import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import ClosingLineReporter from './suites/_support/closing-line-reporter.js';

export default defineConfig({
  test: {
    include: ['suites/**/*.test.ts', 'test/**/*.test.ts'],
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
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/index.ts', 'src/**/types.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 90, branches: 90 },
    },
  },
});

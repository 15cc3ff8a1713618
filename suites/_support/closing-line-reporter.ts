/**
 * Prints the plain closing line CI reads, `N passed, M failed` (skipped on the line
 * before), after vitest's own summary.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const mod of testModules) for (const test of mod.children.allTests()) count[test.result().state]++;
    process.stdout.write(
      `\nskipped: ${count.skipped + count.pending}\n${count.passed} passed, ${count.failed} failed\n`,
    );
  }
}

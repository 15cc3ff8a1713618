/**
 * What `pgv2kit certify` does, loaded only when the command runs (certify.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { certificationOf, runCertification, type CertificationResult } from '../../roles/merchant/certify/certify.js';
import { loadVectorSet } from '../../vectors/load.js';
import { abortedRun } from '../_start-failure.js';
import { CERTIFICATION_PAGES, verdictLine, writeCertificationReports } from '../../roles/merchant/certify/report.js';
import { checkedReportFolder, reportFolderName } from '../_report-folder.js';
import {
  acceptanceRuleOf,
  chooseMerchant,
  describeMerchant,
  reachMerchant,
  type ChosenMerchant,
} from '../merchant-target.js';
import { TargetUnreachableError } from '../_reach.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { jsonOutput } from '../_json-output.js';
import { targetNaming } from '../_target-naming.js';
import { SAMPLE_MERCHANT_NAME } from '../../roles/merchant/certify/sample.js';
import type { certifyOptions } from './certify.js';

/**
 * Runs `pgv2kit certify`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runCertify({
  values,
  io: given,
  addSecret,
  atEnd,
}: CommandContext<typeof certifyOptions>): Promise<number> {
  // --json: one summary line on stdout, every other line on stderr
  const { io, emit } = jsonOutput(values.json === true, given);
  const seed = values.seed ?? randomInt(0, 2 ** 32 - 1);
  // plain defaults: the parser applies them (certify.ts's table)
  const timeoutMs = values.timeout!;
  const deadlineMs = values.deadline!;

  const acceptance = acceptanceRuleOf(values);
  // checked before any call (a wrong --report-dir is exit 2 now, not after the run)
  const reportDir = checkedReportFolder(values, { name: 'certify', io, atEnd }, CERTIFICATION_PAGES);
  const named = targetNaming(values);

  // a sample merchant that cannot start is a SampleMerchantError: one line, exit 3
  const merchant: ChosenMerchant = await chooseMerchant(values, io, 'certify');
  const target = merchant.target;
  addSecret(target.appSecret);
  // the sample merchant is named as run --merchant names it, unless --name says otherwise
  const naming = { ...(merchant.sample ? { name: SAMPLE_MERCHANT_NAME } : {}), ...named };

  // Ctrl-C / SIGTERM: no call starts after it, the reports of what ran are written and say so (NOT CERTIFIED), and
  // --json's document too (issue 25, item 5); a second one stops at once
  const interrupt = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    signalled = signal;
    io.stderr(
      `pgv2kit certify: ${signal}: stopping (the call in flight ends, reports follow; again to stop at once)\n`,
    );
    interrupt.abort(`interrupted by ${signal}`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    io.stdout(`certifying ${describeMerchant(merchant)}; seed ${seed}\n`);
    const startedAt = new Date();
    let result: CertificationResult;
    try {
      await reachMerchant(merchant, timeoutMs);
      result = await runCertification({
        ...target,
        ...naming,
        ...acceptance,
        seed,
        timeoutMs,
        deadlineMs,
        signal: interrupt.signal,
      });
    } catch (e) {
      if (!(e instanceof TargetUnreachableError)) throw e;
      // not reached: one line, and a report that says no call was sent (NOT CERTIFIED, exit 3)
      io.stderr(`pgv2kit certify: ${e.message}\n`);
      const set = loadVectorSet();
      const run = abortedRun({
        failure: e,
        vectorSetHash: set.hash,
        target: { kind: 'merchant', description: e.url },
        selection: { only: ['area:merchant'], skip: [] },
        startedAt,
        finishedAt: new Date(),
        log: [],
        ...(values['run-name'] ? { runName: values['run-name'] } : {}),
      });
      result = certificationOf(run, set, { ...target, ...acceptance, seed, timeoutMs });
    }
    for (const r of result.requirements)
      io.stdout(`${r.result.toUpperCase().padEnd(14)} ${r.id}  ${r.title} (${r.sections.join(', ')})\n`);
    for (const n of result.notes) io.stdout(`note: ${n}\n`);
    for (const reason of result.reasons) io.stdout(`reason: ${reason}\n`);
    const runName = values['run-name'] ?? `certify-${result.date.replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
    const dir = reportDir ?? join(io.cwd, 'reports', reportFolderName(runName));
    // a folder that cannot be written is a ReportWriteError: a usage error (exit 2)
    const written = await writeCertificationReports(result, { dir, secrets: [target.appSecret] });
    io.stdout(`reports: ${written.dir}\n`);
    io.stdout(`${verdictLine(result)}; plan hash ${result.planHash}\n`);
    // a certification that did not reach the merchant or finish in its time is the run failing (exit 3), not the
    // merchant
    const code = signalled
      ? signalled === 'SIGTERM'
        ? EXIT.terminated
        : EXIT.interrupted
      : result.run.aborted || result.run.stopped?.kind === 'deadline'
        ? EXIT.failure
        : result.verdict === 'CERTIFIED'
          ? EXIT.ok
          : EXIT.nonconformance;
    emit(certificationSummary(result, code, dir), [target.appSecret]);
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await merchant.close?.();
  }
}

// --- internal ---

/**
 * What `certify --json` prints: the verdict and its reasons, per requirement its result, the exit code and the
 * reports.
 */
function certificationSummary(r: CertificationResult, exitCode: number, reportsDir: string): object {
  return {
    kit: r.kit,
    verdict: r.verdict,
    reasons: r.reasons,
    exitCode,
    answered: r.answered,
    seed: r.seed,
    planHash: r.planHash,
    vectorSetHash: r.vectorSetHash,
    merchant: r.merchant,
    totals: r.totals,
    requirements: r.requirements.map((q) => ({ id: q.id, title: q.title, sections: q.sections, result: q.result })),
    reportsDir,
  };
}

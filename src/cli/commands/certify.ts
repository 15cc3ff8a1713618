/**
 * `pgv2kit certify`: the kit plays the gateway against a merchant's webhook (notify)
 * and return-redirect endpoints and writes a certification report.
 * @module
 */
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { runCertification } from '../../certify/certify.js';
import { CertificationReportError, verdictLine, writeCertificationReports } from '../../certify/report.js';
import { startSampleMerchant, type StartedSample } from '../../certify/sample.js';
import { resolvePath } from '../_files.js';
import { secondsOption } from '../_numbers.js';
import { UsageError, defineCommand } from '../command.js';
import { EXIT } from '../exit-codes.js';

export const certifyCommand = defineCommand({
  name: 'certify',
  summary: "Certify a merchant's webhook and return-redirect handling, the kit playing the gateway",
  usage: 'pgv2kit certify [--notify-url <url> --return-url <url>] [--deliver-to <url>] [--return-deliver-to <url>] [options]',
  description: [
    'The kit plays the gateway: signed webhooks (POST, JSON) to the notify endpoint and return',
    'redirects (GET returnUrl + paymentNo, merchantTradeNo, payment, authorization) to the return',
    'endpoint, valid and forged, and checks which the merchant accepts (spec 5.5, 5.6, 6; readings',
    'R7-R12, R15, R16). --notify-url and --return-url are the URLs as the merchant registered them',
    '(they are signed); --deliver-to and --return-deliver-to are where the calls actually go when',
    'that differs (a proxy, a local port). Accepted means any 2xx, or with --accept-body a 2xx with',
    'that body. A forged call must be refused with a non-2xx answer below 500. Upper-case hex is',
    'reported, never failed (R7); replay (the same call twice, an old timestamp) is advisory (R12).',
    'Every call has a timeout; redirects are never followed.',
    '',
    'With no URLs, the sample merchant (examples/sample-merchant) is started on 127.0.0.1 with',
    'demo credentials and certified. Reports go to reports/<run name>/ (or --report-dir):',
    'certification.html, certification.md, certification.json, junit.xml — secrets masked. The',
    'same --seed gives the same calls (timestamps aside) and the same plan hash.',
  ].join('\n'),
  options: {
    'notify-url': { type: 'string', valueName: '<url>', description: 'The notifyUrl as the merchant registered it' },
    'return-url': { type: 'string', valueName: '<url>', description: 'The returnUrl as the merchant registered it (its own query included)' },
    'deliver-to': { type: 'string', valueName: '<url>', description: 'Send webhooks here instead of the notifyUrl' },
    'return-deliver-to': { type: 'string', valueName: '<url>', description: 'Send redirects here instead of the returnUrl (parameters are added to it)' },
    'app-id': { type: 'string', valueName: '<id>', description: 'The merchant appId', env: 'PGV2_APP_ID' },
    secret: { type: 'string', valueName: '<secret>', description: 'The merchant secret', env: 'PGV2_APP_SECRET', secret: true },
    'accept-body': { type: 'string', valueName: '<text>', description: 'An accepting answer is a 2xx with this body (e.g. SUCCESS)' },
    seed: { type: 'string', valueName: '<n>', description: 'Seed of the payloads and nonces, 0 to 4294967295 (default: random, printed)' },
    timeout: { type: 'string', valueName: '<seconds>', description: 'Limit for each call (default 5)' },
    'report-dir': { type: 'string', valueName: '<dir>', description: 'Write the report here (default: reports/<run name>)' },
    'run-name': { type: 'string', valueName: '<name>', description: 'Name of the run (default: certify-<date>-<time>)' },
  },
  exitCodes: {
    0: 'CERTIFIED: every requirement passed',
    1: 'NOT CERTIFIED: a requirement failed (the report names it)',
    2: 'usage error: options, URLs, credentials',
    3: 'the merchant could not be reached at all, or the sample merchant could not be started',
  },
  examples: [
    'pgv2kit certify',
    'PGV2_APP_ID=app_1 PGV2_APP_SECRET=… pgv2kit certify --notify-url https://shop.example/pay/notify --return-url https://shop.example/pay/done',
    'pgv2kit certify --notify-url https://shop.example/n --deliver-to http://127.0.0.1:8080/n --return-url https://shop.example/r --return-deliver-to http://127.0.0.1:8080/r --accept-body SUCCESS --seed 42',
  ],
  async run({ values, io, addSecret }) {
    const given = (['notify-url', 'return-url', 'deliver-to', 'return-deliver-to'] as const).filter((k) => values[k] !== undefined);
    const sampleMode = given.length === 0;
    if (!sampleMode && (values['notify-url'] === undefined || values['return-url'] === undefined)) {
      throw new UsageError('give both --notify-url and --return-url (as registered), or neither to certify the sample merchant');
    }
    for (const k of given) {
      const v = values[k] ?? '';
      if (!/^https?:\/\/[^/]/.test(v)) throw new UsageError(`--${k} must be an http(s):// URL, not ${JSON.stringify(v)}`);
      if (v.includes('#')) throw new UsageError(`--${k} must not have a fragment (a fragment is never sent)`);
    }
    const seed = values.seed === undefined ? randomInt(0, 2 ** 32 - 1) : parseSeed(values.seed);
    const timeoutMs = secondsOption(values.timeout, 'timeout', 5);

    let sample: StartedSample | undefined;
    let target: { appId: string; appSecret: string; notifyUrl: string; returnUrl: string; deliverTo?: string; returnDeliverTo?: string };
    if (sampleMode) {
      try {
        sample = await startSampleMerchant();
      } catch (e) {
        io.stderr(`pgv2kit certify: the sample merchant could not be started: ${e instanceof Error ? e.message : String(e)}\n`);
        return EXIT.failure;
      }
      target = sample;
    } else {
      const appId = values['app-id'] ?? io.env['PGV2_APP_ID'];
      const appSecret = values.secret ?? io.env['PGV2_APP_SECRET'];
      if (!appId || !appSecret) throw new UsageError('certify needs the merchant credentials: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)');
      target = {
        appId,
        appSecret,
        notifyUrl: values['notify-url'] ?? '',
        returnUrl: values['return-url'] ?? '',
        ...(values['deliver-to'] !== undefined ? { deliverTo: values['deliver-to'] } : {}),
        ...(values['return-deliver-to'] !== undefined ? { returnDeliverTo: values['return-deliver-to'] } : {}),
      };
    }
    addSecret(target.appSecret);

    try {
      io.stdout(`certifying ${sample ? 'the sample merchant' : 'the merchant'}: notifyUrl ${target.notifyUrl}${target.deliverTo ? ` (delivered to ${target.deliverTo})` : ''}, returnUrl ${target.returnUrl}${target.returnDeliverTo ? ` (delivered to ${target.returnDeliverTo})` : ''}; seed ${seed}\n`);
      const result = await runCertification({ ...target, seed, timeoutMs, ...(values['accept-body'] !== undefined ? { acceptBody: values['accept-body'] } : {}) });
      for (const r of result.requirements) io.stdout(`${r.result.toUpperCase().padEnd(14)} ${r.id}  ${r.title} (${r.sections.join(', ')})\n`);
      for (const n of result.notes) io.stdout(`note: ${n}\n`);
      for (const reason of result.reasons) io.stdout(`reason: ${reason}\n`);
      const runName = values['run-name'] ?? `certify-${result.date.replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
      const dir = values['report-dir'] ? resolvePath(io.cwd, values['report-dir']) : join(io.cwd, 'reports', runName);
      try {
        const written = await writeCertificationReports(result, { dir, secrets: [target.appSecret] });
        io.stdout(`reports: ${written.dir}\n`);
      } catch (e) {
        if (e instanceof CertificationReportError) throw new UsageError(e.message);
        throw e;
      }
      io.stdout(`${verdictLine(result)}; plan hash ${result.planHash}\n`);
      if (!result.reachable) return EXIT.failure;
      return result.verdict === 'CERTIFIED' ? EXIT.ok : EXIT.nonconformance;
    } finally {
      await sample?.close();
    }
  },
});

// --- internal ---

function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) throw new UsageError(`--seed must be an integer from 0 to 4294967295, not ${JSON.stringify(value)}`);
  return Number(value);
}


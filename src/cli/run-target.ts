/**
 * The target of `pgv2kit run`: a testee over protocol v1 (--testee), a module in process
 * (--module), a gateway server (--gateway [url]; without one the reference gateway, started in
 * process), a merchant (--merchant; without URLs the sample merchant, started on loopback), or
 * the built-in reference — with the reference gateway and the sample merchant beside it when
 * gateway and merchant cases are selected. Each started target comes with what stops it.
 * @module
 */
import { DEMO_MERCHANT, startGateway } from '../gateway/index.js';
import { validateTesteeLine } from '../protocol/validate.js';
import type { RunTarget } from '../runner/result.js';
import { combineSubjects } from '../subjects/combine.js';
import { createGatewaySubject, type GatewayTarget } from '../roles/gateway/subject.js';
import { kitVersion } from '../version.js';
import { SAMPLE_MERCHANT_NAME } from '../roles/merchant/certify/sample.js';
import { createMerchantSubject } from '../roles/merchant/subject.js';
import { loadModuleSubject } from '../subjects/module-subject.js';
import { createReferenceSubject } from '../subjects/reference.js';
import type { Subject, TargetNaming } from '../subjects/subject.js';
import { createTesteeSubject } from '../subjects/testee-subject.js';
import { UsageError } from './command.js';
import type { CliIo } from './io.js';
import {
  acceptanceRuleOf,
  chooseMerchant,
  describeMerchant,
  reachMerchant,
  type AcceptanceChoice,
  type MerchantChoice,
} from './merchant-target.js';
import { targetNaming as naming } from './_target-naming.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../env.js';
import { requireReachable } from './_reach.js';
import type { GivenGateway } from '../checks/context.js';

/** The options of `run` that choose the target. */
export interface TargetChoice extends MerchantChoice, AcceptanceChoice {
  readonly testee?: string;
  readonly module?: string;
  readonly gateway?: boolean;
  readonly merchant?: boolean;
  readonly 'validate-protocol'?: boolean;
  /** Run the gateway role's slow cases (--slow). */
  readonly slow?: boolean;
  readonly 'app-id'?: string;
  readonly secret?: string;
  /** How reports name a gateway or merchant target (--name, --version). */
  readonly name?: string;
  readonly version?: string;
}

/** A started target. */
export interface StartedTarget {
  readonly subject: Subject;
  readonly target: RunTarget;
  /** With --testee or --module and --gateway <url>: the gateway the plain client cases run against. */
  readonly clientGateway?: GivenGateway;
  /** Stops what was started beside the subject (a gateway), if anything. */
  readonly close: (() => Promise<void>) | undefined;
}

/**
 * Starts the target the options name.
 * @param choice - --testee, --module, --gateway and their options
 * @param gatewayUrl - the base URL given with --gateway, if any
 * @param io - the working folder and environment
 * @param run - whether gateway and merchant cases are selected, the timeout (and the testee's start timeout: the
 *   timeout unless given), the merchant role's seed, the run log, and how to declare a secret
 * @returns the subject, how the reports name it, and what stops it
 * @throws {TesteeStartError} when the testee cannot start (the run ends with reports that say so)
 * @throws {ModuleSubjectError} when the module offers no subject
 * @throws {UsageError} for an empty --testee, missing gateway or merchant credentials, bad merchant URLs, --gateway
 *   without a URL beside --testee or --module, --name or --version beside them
 * @throws {SampleMerchantError} when the sample merchant cannot be started
 * @throws {TargetUnreachableError} when the gateway or merchant at the URLs given cannot be reached
 */
export async function startTarget(
  choice: TargetChoice,
  gatewayUrl: string | undefined,
  io: Pick<CliIo, 'cwd' | 'env'>,
  run: {
    readonly needsGateway: boolean;
    readonly needsMerchant: boolean;
    readonly timeoutMs: number;
    readonly startTimeoutMs?: number;
    readonly giveUpAfter?: number;
    readonly maxRestarts?: number;
    readonly seed: number;
    readonly log: string[];
    readonly addSecret: (s: string) => void;
  },
): Promise<StartedTarget> {
  const sdk = choice.testee !== undefined || choice.module !== undefined;
  // an SDK with --gateway <url>: its plain client cases go there (checked and reached before the SDK starts)
  const clientGateway = sdk && choice.gateway ? await sdkGateway(choice, gatewayUrl, io, run) : undefined;
  const against = (description: string): { target?: RunTarget; clientGateway?: GivenGateway } =>
    clientGateway
      ? {
          clientGateway,
          target: {
            ...sdkTarget(choice),
            description: describeSdk(description, clientGateway),
            command: description,
            clientGateway: clientGateway.baseUrl,
          },
        }
      : {};
  if (choice.testee !== undefined) {
    if (choice.testee.trim() === '') throw new UsageError('--testee needs a command');
    const subject = await createTesteeSubject({
      command: choice.testee,
      cwd: io.cwd,
      env: io.env,
      timeoutMs: run.timeoutMs,
      startTimeoutMs: run.startTimeoutMs ?? run.timeoutMs,
      ...(run.giveUpAfter !== undefined ? { giveUpAfter: run.giveUpAfter } : {}),
      ...(run.maxRestarts !== undefined ? { maxRestarts: run.maxRestarts } : {}),
      log: (line) => run.log.push(`${new Date().toISOString()} ${line}`),
      ...(choice['validate-protocol']
        ? {
            validate: (m, context) => {
              const v = validateTesteeLine(m, context);
              return v.ok ? [] : v.problems;
            },
          }
        : {}),
    });
    return {
      subject,
      target: { kind: 'testee', description: choice.testee },
      close: undefined,
      ...against(choice.testee),
    };
  }
  if (choice.module !== undefined)
    return {
      subject: await loadModuleSubject(choice.module, io.cwd),
      target: { kind: 'module', description: choice.module },
      close: undefined,
      ...against(choice.module),
    };
  if (choice.gateway) {
    const started = await gatewayTarget(
      gatewayUrl,
      choice['app-id'] ?? io.env[APP_ID_ENV],
      choice.secret ?? io.env[APP_SECRET_ENV],
      run.timeoutMs,
      naming(choice),
    );
    run.addSecret(started.target.appSecret);
    return {
      subject: createGatewaySubject({ ...started.target, slow: choice.slow === true }),
      target: { kind: 'gateway', description: started.description },
      close: started.close,
    };
  }
  if (choice.merchant) {
    const m = await merchantTarget(choice, io, run);
    return { subject: m.subject, target: { kind: 'merchant', description: m.description }, close: m.close };
  }
  // the roles too, when their cases are selected: the reference gateway, in process, and the
  // sample merchant, each checked as any gateway or merchant is
  const parts = [createReferenceSubject()];
  const descriptions = ['built-in reference'];
  const closers: Array<() => Promise<void>> = [];
  try {
    if (run.needsGateway) {
      const started = await gatewayTarget(undefined, undefined, undefined, run.timeoutMs, {});
      if (started.close) closers.push(started.close);
      parts.push(createGatewaySubject({ ...started.target, slow: choice.slow === true }));
      descriptions.push(`gateway role: ${started.description}`);
    }
    if (run.needsMerchant) {
      const m = await merchantTarget({}, io, run);
      if (m.close) closers.push(m.close);
      parts.push(m.subject);
      descriptions.push(`merchant role: ${m.description}`);
    }
  } catch (e) {
    for (const close of closers) await close();
    throw e;
  }
  const [reference, ...roles] = parts as [Subject, ...Subject[]];
  return {
    subject: roles.length > 0 ? combineSubjects(reference, ...roles) : reference,
    target: { kind: 'reference', description: descriptions.join('; ') },
    close:
      closers.length > 0
        ? async () => {
            for (const close of closers) await close();
          }
        : undefined,
  };
}

// --- internal ---

/** The target kind of an SDK (--testee or --module). */
function sdkTarget(choice: TargetChoice): Pick<RunTarget, 'kind'> {
  return { kind: choice.testee !== undefined ? 'testee' : 'module' };
}

/** How the reports name an SDK run against a given gateway: the SDK, and where its client cases ran. */
function describeSdk(sdk: string, gateway: GivenGateway): string {
  return `${sdk}; client cases against ${gateway.baseUrl}, those the kit must stage against the kit's gateway`;
}

/** The gateway an SDK's plain client cases run against: its URL checked, its credentials required, reached once. */
async function sdkGateway(
  choice: TargetChoice,
  url: string | undefined,
  io: Pick<CliIo, 'env'>,
  run: { readonly timeoutMs: number; readonly addSecret: (s: string) => void },
): Promise<GivenGateway> {
  // --name and --version name a gateway or merchant under test; the SDK names itself, the gateway is only its partner
  for (const option of ['name', 'version'] as const)
    if (choice[option] !== undefined)
      throw new UsageError(
        `--${option} names a gateway or merchant under test: with --testee or --module, --gateway is the SDK's ` +
          'partner, not under test, and the SDK names itself in its handshake',
      );
  if (url === undefined)
    throw new UsageError(
      'with --testee or --module, --gateway takes the base URL of the gateway the client cases run against ' +
        "(without --gateway they run against the kit's own)",
    );
  if (!/^https?:\/\/[^/]/.test(url))
    throw new UsageError(`the gateway base URL must be http(s)://…, not ${JSON.stringify(url)}`);
  const appId = choice['app-id'] ?? io.env[APP_ID_ENV];
  const appSecret = choice.secret ?? io.env[APP_SECRET_ENV];
  if (!appId || !appSecret)
    throw new UsageError(
      `the client cases against ${url} need the merchant credentials that gateway knows: ` +
        '--app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)',
    );
  run.addSecret(appSecret);
  await requireReachable([{ what: 'the gateway', url }], run.timeoutMs);
  return { baseUrl: url, appId, appSecret };
}

/** The merchant under test (the sample merchant when no URL is given) and its subject. */
async function merchantTarget(
  choice: TargetChoice,
  io: Pick<CliIo, 'env'>,
  run: { readonly timeoutMs: number; readonly seed: number; readonly addSecret: (s: string) => void },
): Promise<{ subject: Subject; description: string; close: (() => Promise<void>) | undefined }> {
  const acceptance = acceptanceRuleOf(choice);
  const m = await chooseMerchant(choice, io, 'the merchant role');
  run.addSecret(m.target.appSecret);
  try {
    await reachMerchant(m, run.timeoutMs);
  } catch (e) {
    await m.close?.();
    throw e;
  }
  const subject = createMerchantSubject({
    ...m.target,
    ...(m.sample ? { name: SAMPLE_MERCHANT_NAME } : {}),
    ...naming(choice),
    ...acceptance,
    seed: run.seed,
    timeoutMs: run.timeoutMs,
  });
  return { subject, description: `${describeMerchant(m)}; seed ${run.seed}`, close: m.close };
}

/**
 * The gateway under test: the URL given (reached once first), or the reference gateway started in process with its
 * demo merchant (named as the kit's, unless --name says otherwise).
 */
async function gatewayTarget(
  url: string | undefined,
  appId: string | undefined,
  appSecret: string | undefined,
  timeoutMs: number,
  named: TargetNaming,
): Promise<{ target: GatewayTarget; description: string; close?: () => Promise<void> }> {
  if (url !== undefined) {
    if (!/^https?:\/\/[^/]/.test(url))
      throw new UsageError(`the gateway base URL must be http(s)://…, not ${JSON.stringify(url)}`);
    if (!appId || !appSecret)
      throw new UsageError(
        'the gateway role needs the merchant credentials: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)',
      );
    await requireReachable([{ what: 'the gateway', url }], timeoutMs);
    return { target: { baseUrl: url, appId, appSecret, timeoutMs, ...named }, description: url };
  }
  const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
  const reference: TargetNaming = { name: REFERENCE_GATEWAY_NAME, version: kitVersion() };
  return {
    target: { baseUrl: gateway.baseUrl, ...DEMO_MERCHANT, timeoutMs, ...reference, ...named },
    description: `reference gateway at ${gateway.baseUrl}`,
    close: () => gateway.close(),
  };
}

/**
 * How reports name the kit's reference gateway when it is the target (its version: the kit's). Not
 * `pgv2kit-…`: the demo merchant's secret, masked in every report with any 12 bytes of it, begins so.
 */
const REFERENCE_GATEWAY_NAME = 'reference-gateway';

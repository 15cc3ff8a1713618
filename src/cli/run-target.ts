/**
 * The target of `pgv2kit run`: a testee over protocol v1 (--testee), a module in process
 * (--module), a gateway server (--gateway [url]; without one the reference gateway, started in
 * process), or the built-in reference — with the reference gateway beside it when gateway
 * cases are selected. Each started target comes with what stops it.
 * @module
 */
import { DEMO_MERCHANT, startGateway } from '../gateway/index.js';
import { validateTesteeLine } from '../protocol/validate.js';
import type { RunTarget } from '../runner/result.js';
import { combineSubjects } from '../subjects/combine.js';
import { createGatewaySubject, type GatewayTarget } from '../subjects/gateway-subject.js';
import { loadModuleSubject } from '../subjects/module-subject.js';
import { createReferenceSubject } from '../subjects/reference.js';
import type { Subject } from '../subjects/subject.js';
import { createTesteeSubject } from '../subjects/testee-subject.js';
import { UsageError } from './command.js';
import type { CliIo } from './io.js';

/** The options of `run` that choose the target. */
export interface TargetChoice {
  readonly testee?: string;
  readonly module?: string;
  readonly gateway?: boolean;
  readonly 'validate-protocol'?: boolean;
  readonly 'app-id'?: string;
  readonly secret?: string;
}

/** A started target. */
export interface StartedTarget {
  readonly subject: Subject;
  readonly target: RunTarget;
  /** Stops what was started beside the subject (a gateway), if anything. */
  readonly close: (() => Promise<void>) | undefined;
}

/**
 * Starts the target the options name.
 * @param choice - --testee, --module, --gateway and their options
 * @param gatewayUrl - the base URL given with --gateway, if any
 * @param io - the working folder and environment
 * @param run - whether gateway cases are selected, the timeout, the run log, and how to declare a secret
 * @returns the subject, how the reports name it, and what stops it
 * @throws {TesteeStartError} when the testee cannot start (the run ends with reports that say so)
 * @throws {ModuleSubjectError} when the module offers no subject
 * @throws {UsageError} for an empty --testee or missing gateway credentials
 */
export async function startTarget(choice: TargetChoice, gatewayUrl: string | undefined, io: Pick<CliIo, 'cwd' | 'env'>, run: { readonly needsGateway: boolean; readonly timeoutMs: number; readonly log: string[]; readonly addSecret: (s: string) => void }): Promise<StartedTarget> {
  if (choice.testee !== undefined) {
    if (choice.testee.trim() === '') throw new UsageError('--testee needs a command');
    const subject = await createTesteeSubject({
      command: choice.testee,
      cwd: io.cwd,
      env: io.env,
      timeoutMs: run.timeoutMs,
      startTimeoutMs: run.timeoutMs,
      log: (line) => run.log.push(`${new Date().toISOString()} ${line}`),
      ...(choice['validate-protocol'] ? { validate: (m, context) => { const v = validateTesteeLine(m, context); return v.ok ? [] : v.problems; } } : {}),
    });
    return { subject, target: { kind: 'testee', description: choice.testee }, close: undefined };
  }
  if (choice.gateway) {
    const started = await gatewayTarget(gatewayUrl, choice['app-id'] ?? io.env['PGV2_APP_ID'], choice.secret ?? io.env['PGV2_APP_SECRET']);
    run.addSecret(started.target.appSecret);
    return { subject: createGatewaySubject(started.target), target: { kind: 'gateway', description: started.description }, close: started.close };
  }
  if (choice.module !== undefined) return { subject: await loadModuleSubject(choice.module, io.cwd), target: { kind: 'module', description: choice.module }, close: undefined };
  if (!run.needsGateway) return { subject: createReferenceSubject(), target: { kind: 'reference', description: 'built-in reference' }, close: undefined };
  // the gateway role too: the reference gateway, in process, checked as any gateway is
  const started = await gatewayTarget(undefined, undefined, undefined);
  return { subject: combineSubjects(createReferenceSubject(), createGatewaySubject(started.target)), target: { kind: 'reference', description: `built-in reference; gateway role: ${started.description}` }, close: started.close };
}

// --- internal ---

/** The gateway under test: the URL given, or the reference gateway started in process with its demo merchant. */
async function gatewayTarget(url: string | undefined, appId: string | undefined, appSecret: string | undefined): Promise<{ target: GatewayTarget; description: string; close?: () => Promise<void> }> {
  if (url !== undefined) {
    if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`the gateway base URL must be http(s)://…, not ${JSON.stringify(url)}`);
    if (!appId || !appSecret) throw new UsageError('the gateway role needs the merchant credentials: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)');
    return { target: { baseUrl: url, appId, appSecret }, description: url };
  }
  const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
  return { target: { baseUrl: gateway.baseUrl, ...DEMO_MERCHANT }, description: `reference gateway at ${gateway.baseUrl}`, close: () => gateway.close() };
}

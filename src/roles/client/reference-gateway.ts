/**
 * The reference gateway for client-role cases: started in process when a run has
 * client cases and the implementation offers client.* operations, with the cases'
 * merchants and each case's scenario under its id (the client of a case talks to
 * `/s/<case id>`), and seen by the client check through {@link GatewayView}.
 * @module
 */
import type { CheckContext, GivenGateway } from '../../checks/context.js';
import { runsAgainstGivenGateway } from './check.js';
import { startGateway } from '../../gateway/gateway.js';
import type { Scenario } from '../../vectors/scenario.js';
import type { Subject } from '../../subjects/subject.js';
import type { ClientCase, LoadedCase } from '../../vectors/types.js';

/** A started gateway and how to stop it. */
export interface ClientGateway {
  readonly context: CheckContext;
  close(): Promise<void>;
}

/**
 * Starts the reference gateway when the run needs it.
 * @param cases - the selected cases
 * @param subject - the implementation under test
 * @param given - a gateway the plain client cases run against instead (`run --testee X --gateway URL`)
 * @returns the check context with the gateway (and the given one), or undefined when no case needs one
 * @example
 * const gw = await startClientGateway(
 *   liveCases(set)
 *     .filter((l) => l.case.kind === 'client')
 *     .slice(0, 1),
 *   subject,
 * );
 * await gw?.close();
 */
export async function startClientGateway(
  cases: readonly LoadedCase[],
  subject: Subject,
  given?: GivenGateway,
): Promise<ClientGateway | undefined> {
  // with a gateway given, the plain cases go there (runsAgainstGivenGateway): the kit's serves the rest
  const clientCases = cases
    .map((c) => c.case)
    .filter((c): c is ClientCase => c.kind === 'client' && subject.operations.includes(c.op))
    .filter((c) => !given || !runsAgainstGivenGateway(c));
  if (clientCases.length === 0)
    return given ? { context: { givenGateway: given }, close: () => Promise.resolve() } : undefined;
  const merchants = new Map<string, string>();
  for (const c of clientCases) merchants.set(c.inputs.appId, c.inputs.appSecret);
  const scenarios = new Map<string, Scenario>(clientCases.map((c) => [c.id, c.scenario]));
  const gateway = await startGateway({
    merchants: [...merchants].map(([appId, appSecret]) => ({ appId, appSecret })),
    scenarios: (id: string) => scenarios.get(id) ?? {},
  });
  return {
    context: {
      gateway: {
        url: (id) => gateway.url(id),
        record: (id) => gateway.recorder.for(id),
        stored: (uri) => gateway.storage.read(uri),
      },
      ...(given ? { givenGateway: given } : {}),
    },
    close: () => gateway.close(),
  };
}

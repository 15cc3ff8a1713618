/**
 * The gateway role: a gateway server, the kit playing the merchant — signed requests, genuine and
 * forged, and the upload protocol's rules (spec §2, §4, §5, §8).
 * @module
 */
import { gatewayCheck } from './check.js';
import { defineRole } from '../role.js';

/**
 * The gateway role.
 * @example gatewayRole.kinds.gateway.check.kind // 'gateway'
 */
export const gatewayRole = defineRole({
  name: 'gateway',
  title: 'a gateway server, the kit playing the merchant',
  endToEnd: true,
  target: { option: 'gateway' },
  // the server's answer is in the step's message: nothing more to diagnose
  kinds: { gateway: { check: gatewayCheck, diagnose: () => [], implementation: { verifies: true } } },
});

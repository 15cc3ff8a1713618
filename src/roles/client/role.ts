/**
 * The client role: an SDK against a gateway (the kit's own, or any other), end to end — the
 * requests it sends, the responses it verifies, the upload it makes (spec §2, §4, §5.4).
 * @module
 */
import { clientCheck } from './check.js';
import { defineRole } from '../role.js';

/**
 * The client role.
 * @example clientRole.endToEnd // true
 */
export const clientRole = defineRole({
  name: 'client',
  title: 'an SDK against a gateway, end to end',
  endToEnd: true,
  // the gateway's record of what the client sent is in the step's message: nothing more to diagnose
  kinds: { client: { check: clientCheck, diagnose: () => [], implementation: { signs: true } } },
});

/**
 * What counts as acceptance per endpoint (src/roles/merchant/as-gateway/acceptance.ts): the
 * notify endpoint's 2xx (with --accept-body, that body), the return endpoint's page or redirect
 * and the refusal page or redirect a merchant names.
 */
import { describe, expect, it } from 'vitest';
import { isAccepting } from '../../src/roles/merchant/as-gateway/acceptance.js';

const RETURN = 'https://shop.example.test/pay/return?order=7';

describe('isAccepting', () => {
  it.each([
    [{ status: 200, body: 'anything' }, {}, true],
    [{ status: 204, body: '' }, {}, true],
    [{ status: 302, body: '' }, {}, false],
    [{ status: 401, body: 'SUCCESS' }, {}, false],
    [{ status: 200, body: ' SUCCESS\n' }, { acceptBody: 'SUCCESS' }, true],
    [{ status: 200, body: 'FAIL' }, { acceptBody: 'SUCCESS' }, false],
    [{ status: 204, body: '' }, { acceptBody: 'SUCCESS' }, false],
  ])('notify: %j with %j → %s', (answer, rule, accepted) => {
    expect(isAccepting(answer, 'notify', rule, RETURN)).toBe(accepted);
  });

  it.each([
    [{ status: 200, body: '<h1>Thank you</h1>' }, {}, true],
    [{ status: 302, body: '', location: '/orders/7' }, {}, true],
    [{ status: 400, body: 'no' }, {}, false],
    [
      { status: 200, body: '<p>Payment could not be verified</p>' },
      { returnRefusalBody: 'could not be verified' },
      false,
    ],
    [{ status: 200, body: '<h1>Thank you</h1>' }, { returnRefusalBody: 'could not be verified' }, true],
    // a path prefix matches an absolute Location on any origin's path and query, and a relative one
    [
      { status: 302, body: '', location: 'https://merchant.example.test/pay/failed?order=7' },
      { returnRefusalLocation: '/pay/failed' },
      false,
    ],
    [{ status: 303, body: '', location: '/pay/failed' }, { returnRefusalLocation: '/pay/failed' }, false],
    [{ status: 302, body: '', location: '/orders/7' }, { returnRefusalLocation: '/pay/failed' }, true],
    // an absolute refusal URL: the Location resolved against the returnUrl must start with it
    [
      { status: 302, body: '', location: '/pay/failed' },
      { returnRefusalLocation: 'https://shop.example.test/pay/failed' },
      false,
    ],
    [
      { status: 302, body: '', location: 'https://elsewhere.example.test/pay/failed' },
      { returnRefusalLocation: 'https://shop.example.test/pay/failed' },
      true,
    ],
  ])('return: %j with %j → %s', (answer, rule, accepted) => {
    expect(isAccepting(answer, 'return', rule, RETURN)).toBe(accepted);
  });
});

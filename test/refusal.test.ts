/**
 * R16, the one rule the gateway role, fuzz and certification share: any non-2xx answer is a
 * refusal; a 5xx is one too, reported as an advisory where a refusal is allowed, and a failure
 * for a genuine message. Expected values from readings.md's R16 row.
 */
import { describe, expect, it } from 'vitest';
import { judgeAnswer } from '../src/refusal.js';

const ADVISORY = 'answered with a server error, not a refusal (R16)';

describe('judgeAnswer (R16)', () => {
  it.each([
    // expectation, status, accepting otherwise, ok, counted, advisory
    ['refuse', 401, false, true, 'refused', undefined],
    ['refuse', 200, false, true, 'refused', undefined], // a 200 whose envelope code is not OK
    ['refuse', 500, false, true, 'refused', ADVISORY],
    ['refuse', 503, true, true, 'refused', ADVISORY], // a 5xx is never an acceptance
    ['refuse', 204, true, false, 'accepted', undefined],
    ['either', 502, false, true, 'refused', ADVISORY],
    ['either', 200, true, true, 'accepted', undefined],
    ['accept', 200, true, true, 'accepted', undefined],
    ['accept', 500, false, false, 'refused', undefined],
    ['accept', 400, false, false, 'refused', undefined],
  ] as const)(
    '%s, HTTP %i (accepting: %s): ok %s, counted %s',
    (expectation, status, accepting, ok, counted, advisory) => {
      const j = judgeAnswer(expectation, status, accepting);
      expect([j.ok, j.counted, j.advisory]).toEqual([ok, counted, advisory]);
      expect(j.serverError).toBe(status >= 500);
    },
  );

  it('names a 5xx to a genuine message as a failure of R16', () => {
    expect(judgeAnswer('accept', 500, false).problem).toBe(
      'answered 500 to a genuine message: a server error is a failure (R16)',
    );
    expect(judgeAnswer('accept', 401, false).problem).toBe('refused a genuine message (HTTP 401)');
  });

  it.each([0, 99, 600, 200.5, Number.NaN])('refuses %s as a status (misuse)', (status) => {
    expect(() => judgeAnswer('refuse', status, false)).toThrow(RangeError);
  });
});

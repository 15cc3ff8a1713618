import { describe, expect, it } from 'vitest';
import { isOperation, KIT_OPERATIONS, PROTOCOL_OPERATIONS } from '../../src/protocol/operations.js';

describe('operations', () => {
  it('knows the twelve operations of protocol v1 and the kit-internal ones', () => {
    expect(PROTOCOL_OPERATIONS).toHaveLength(12);
    expect(isOperation('signature.sign')).toBe(true);
    expect(isOperation('upload.formCheck')).toBe(true);
    expect(KIT_OPERATIONS).toEqual([
      'upload.formCheck',
      'gateway.generateUploadUrl',
      'gateway.createPayment',
      'gateway.upload',
      'merchant.webhook',
      'merchant.redirect',
    ]);
    expect(isOperation('signature.verify')).toBe(false);
  });
});

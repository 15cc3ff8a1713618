/**
 * The SDK's operations (spec §5.1–§5.6, §8, §4.2): signing, the Authorization header, verifying
 * requests, responses, webhooks and redirects, and the upload form — each a vector kind whose
 * check calls the implementation's operations directly (protocol v1, a module, the reference).
 * @module
 */
import { authorizationCheck } from '../../checks/authorization.js';
import { redirectCheck } from '../../checks/redirect.js';
import { requestCheck } from '../../checks/request.js';
import { responseCheck } from '../../checks/response.js';
import { signatureCheck } from '../../checks/signature.js';
import { uploadCheck } from '../../checks/upload.js';
import { webhookCheck } from '../../checks/webhook.js';
import { diagnoseAuthorization } from '../../diagnosis/authorization.js';
import { diagnoseMessage } from '../../diagnosis/message.js';
import { diagnoseRedirect } from '../../diagnosis/redirect.js';
import {
  authorizationRefusalCauses,
  messageRefusalCauses,
  redirectCaseRefusalCauses,
  signatureRefusalCauses,
} from '../../diagnosis/refusal-causes.js';
import { diagnoseSignature } from '../../diagnosis/signature.js';
import { diagnoseUpload } from '../../diagnosis/upload.js';
import { defineRole } from '../role.js';

/**
 * The operations role.
 * @example operationsRole.kinds.signature.check.kind // 'signature'
 */
export const operationsRole = defineRole({
  name: 'operations',
  title: "the SDK's operations: signing, the Authorization header, verifying, the upload form",
  endToEnd: false,
  kinds: {
    signature: {
      check: signatureCheck,
      diagnose: diagnoseSignature,
      couldExplain: signatureRefusalCauses,
      implementation: { signs: true, verifies: true },
    },
    authorization: {
      check: authorizationCheck,
      diagnose: diagnoseAuthorization,
      couldExplain: authorizationRefusalCauses,
    },
    request: {
      check: requestCheck,
      diagnose: diagnoseMessage,
      couldExplain: messageRefusalCauses,
      implementation: { verifies: true },
    },
    response: {
      check: responseCheck,
      diagnose: diagnoseMessage,
      couldExplain: messageRefusalCauses,
      implementation: { verifies: true },
    },
    webhook: {
      check: webhookCheck,
      diagnose: diagnoseMessage,
      couldExplain: messageRefusalCauses,
      implementation: { verifies: true },
    },
    redirect: {
      check: redirectCheck,
      diagnose: diagnoseRedirect,
      couldExplain: redirectCaseRefusalCauses,
      implementation: { verifies: true },
    },
    upload: { check: uploadCheck, diagnose: diagnoseUpload },
  },
});

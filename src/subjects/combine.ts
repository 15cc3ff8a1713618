/**
 * One subject made of several: each operation goes to the first subject that offers
 * it. `pgv2kit run` with no target combines the reference with the reference gateway
 * (seen through the gateway role's subject), so one run covers every vector.
 * @module
 */
import type { Subject } from './subject.js';

/**
 * Combines subjects.
 * @param primary - gives the implementation's name; asked first
 * @param others - asked for the operations the primary does not offer
 * @returns a subject offering the union of their operations
 * @example
 * import { createGatewaySubject } from '../roles/gateway/subject.js';
 * const subject = combineSubjects(createReferenceSubject(), createGatewaySubject({ baseUrl, appId, appSecret }));
 * subject.operations.includes('gateway.generateUploadUrl') // true
 */
export function combineSubjects(primary: Subject, ...others: Subject[]): Subject {
  const all = [primary, ...others];
  const unknown = [...new Set(all.flatMap((s) => s.unknownOperations ?? []))];
  return {
    implementation: primary.implementation,
    operations: [...new Set(all.flatMap((s) => s.operations))],
    ...(unknown.length > 0 ? { unknownOperations: unknown } : {}),
    call(op, input, caseId) {
      const owner = all.find((s) => s.operations.includes(op)) ?? primary;
      return owner.call(op, input, caseId);
    },
    gaveUp() {
      for (const s of all) {
        const why = s.gaveUp?.();
        if (why !== undefined) return why;
      }
      return undefined;
    },
    warnings() {
      return all.flatMap((s) => s.warnings?.() ?? []);
    },
    async close() {
      for (const s of all) await s.close?.();
    },
    abort() {
      for (const s of all) s.abort?.();
    },
  };
}

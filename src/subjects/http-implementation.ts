/**
 * Who an HTTP target is, for the reports: a gateway or a merchant is named by the run
 * (`--name`, `--version`), else by its host, with no version rather than an unknown one.
 * @module
 */
import type { Implementation, TargetNaming } from './subject.js';

/**
 * The implementation an HTTP target is said to be.
 * @param role - `gateway` or `merchant`
 * @param url - its base URL (the gateway) or notifyUrl (the merchant)
 * @param naming - the name and version given, if any
 * @returns e.g. `{ name: 'gateway 127.0.0.1:8080', version: '', language: 'http' }`
 */
export function httpImplementation(role: 'gateway' | 'merchant', url: string, naming: TargetNaming): Implementation {
  return { name: naming.name ?? `${role} ${hostOf(url)}`, version: naming.version ?? '', language: 'http' };
}

// --- internal ---

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

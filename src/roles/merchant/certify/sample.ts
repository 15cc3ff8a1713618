/**
 * The sample merchant (examples/sample-merchant/merchant.mjs), started on loopback
 * with demo credentials: what `pgv2kit certify` certifies when given no URLs.
 * @module
 */

/**
 * Demo credentials of the sample merchant (not a real merchant's).
 * @example SAMPLE_CREDENTIALS.appId // 'demo_merchant_app'
 */
export const SAMPLE_CREDENTIALS = { appId: 'demo_merchant_app', appSecret: 'demo_sample_secret_5f1c2a7e' } as const;

/**
 * How reports name the sample merchant (run --merchant and certify alike, unless --name says otherwise).
 * @example SAMPLE_MERCHANT_NAME // 'sample-merchant'
 */
export const SAMPLE_MERCHANT_NAME = 'sample-merchant';

/** The URLs the sample merchant registers: public-looking, so delivery differs (R10, R11). */
export const SAMPLE_REGISTERED = {
  notifyUrl: 'https://shop.example.test/pgv2/notify',
  returnUrl: 'https://shop.example.test/pgv2/return?order=A1&lang=fr',
} as const;

/** A started sample merchant and where to deliver to it. */
export interface StartedSample {
  readonly appId: string;
  readonly appSecret: string;
  readonly notifyUrl: string;
  readonly returnUrl: string;
  readonly deliverTo: string;
  readonly returnDeliverTo: string;
  close(): Promise<void>;
}

/**
 * The sample merchant's module, relative to this file in both src/roles/merchant/certify and
 * dist/roles/merchant/certify.
 */
export const SAMPLE_MODULE = new URL('../../../../examples/sample-merchant/merchant.mjs', import.meta.url);

/**
 * Starts the sample merchant on 127.0.0.1 (a free port).
 * @returns the credentials, registered URLs, delivery URLs and close()
 * @throws {Error} when the sample merchant's module cannot be loaded
 * @example const s = await startSampleMerchant(); await s.close();
 */
export async function startSampleMerchant(): Promise<StartedSample> {
  const mod = (await import(SAMPLE_MODULE.href)) as {
    startMerchant(o: {
      appId: string;
      appSecret: string;
      notifyUrl: string;
      returnUrl: string;
      host: string;
      port: number;
    }): Promise<{ url: string; close(): Promise<void> }>;
  };
  const m = await mod.startMerchant({ ...SAMPLE_CREDENTIALS, ...SAMPLE_REGISTERED, host: '127.0.0.1', port: 0 });
  return {
    ...SAMPLE_CREDENTIALS,
    ...SAMPLE_REGISTERED,
    deliverTo: localDelivery(m.url, SAMPLE_REGISTERED.notifyUrl),
    returnDeliverTo: localDelivery(m.url, SAMPLE_REGISTERED.returnUrl),
    close: () => m.close(),
  };
}

/**
 * The delivery URL of a registered URL on a local server: its path and query on that server.
 * @param base - the server, e.g. `http://127.0.0.1:8080`
 * @param registered - the URL as registered
 * @returns e.g. `http://127.0.0.1:8080/pgv2/return?order=A1&lang=fr`
 * @example localDelivery('http://127.0.0.1:1', 'https://x.test/n?a=1') // 'http://127.0.0.1:1/n?a=1'
 */
export function localDelivery(base: string, registered: string): string {
  const u = new URL(registered);
  return `${base}${u.pathname}${u.search}`;
}

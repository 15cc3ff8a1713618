/**
 * A merchant written in another language (or as a plain script), run as a child process: the
 * zoo's and the panel's Python members and the Node panel's scripts. Every member takes the
 * sample merchant's environment (MERCHANT_APP_ID, MERCHANT_APP_SECRET, MERCHANT_NOTIFY_URL,
 * MERCHANT_RETURN_URL, MERCHANT_HOST, MERCHANT_PORT) and prints its origin as its first line.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { MerchantOptions, RunningMerchant } from '../examples/sample-merchant/merchant.mjs';

/**
 * Starts `command args…` with the merchant's options in its environment (port 0: any free one)
 * and resolves with its origin; stopping it ends its stdin and sends SIGTERM.
 * @param command - the program, e.g. `python3`
 * @param args - its arguments, e.g. the member's file
 * @param options - credentials and the URLs as registered
 * @param extraEnv - more environment (a zoo member's MERCHANT_MISTAKE)
 * @returns the running merchant
 */
export function startMerchantProcess(
  command: string,
  args: readonly string[],
  options: MerchantOptions,
  extraEnv: Record<string, string> = {},
): Promise<RunningMerchant> {
  const child = spawn(command, [...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      PYTHONDONTWRITEBYTECODE: '1',
      MERCHANT_APP_ID: options.appId,
      MERCHANT_APP_SECRET: options.appSecret,
      MERCHANT_NOTIFY_URL: options.notifyUrl,
      MERCHANT_RETURN_URL: options.returnUrl,
      MERCHANT_HOST: '127.0.0.1',
      MERCHANT_PORT: '0',
      ...extraEnv,
    },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4000) stderr += d.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    child.stdin.end();
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(killer);
  };
  return new Promise<RunningMerchant>((resolve, reject) => {
    const timer = setTimeout(() => {
      void close();
      reject(new Error(`${command} ${args.join(' ')} printed no origin within 10 s; stderr: ${stderr}`));
    }, 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before printing its origin; stderr: ${stderr}`));
    });
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const url = line.trim();
      if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) {
        void close();
        reject(new Error(`${command} ${args.join(' ')} printed ${JSON.stringify(line)}, not its origin`));
        return;
      }
      resolve({ url, close } as RunningMerchant);
    });
  });
}

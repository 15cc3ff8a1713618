/**
 * Inputs checked before any case runs (issue 12): a --report-dir that is a file, under a file,
 * or a folder holding other files, and an --expect-failures file that cannot be written, are exit 2
 * naming the path, with nothing run; --update-expect-failures keeps the entries of cases the run
 * did not select.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../_support.js';
import { run } from './_run.js';

const tmp = tempFolders('pgv2kit-inputs-');

describe.concurrent('a wrong --report-dir is found before any case runs', () => {
  it.each([
    [
      'a file',
      (d: string) => (writeFileSync(join(d, 'out'), 'x'), 'out'),
      /cannot write the report folder .*out: it exists and is not a folder/,
    ],
    [
      'a folder under a file',
      (d: string) => (writeFileSync(join(d, 'f'), 'x'), 'f/out'),
      /cannot write the report folder .*f\/out: .*\/f is not a folder/,
    ],
    [
      'a folder of other files',
      (d: string) => (mkdirSync(join(d, 'mine')), writeFileSync(join(d, 'mine', 'notes.txt'), 'keep'), 'mine'),
      /it exists and is not a report folder/,
    ],
  ])('run: %s → exit 2, nothing run, nothing written', async (_what, make, message) => {
    const cwd = tmp();
    const dir = make(cwd);
    const r = await run(['run', '--report-dir', dir, '--no-properties'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/passed/);
  });

  it('run with no --report-dir: a file named reports in the working folder → exit 2 before any case runs', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'reports'), 'x');
    const r = await run(['run', '--no-properties'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write the report folder .*\/reports: .*\/reports is not a folder/);
    expect(r.stdout).not.toMatch(/passed/);
  });

  it('certify: a --report-dir that is a file → exit 2 before any call', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'out'), 'x');
    const r = await run(['certify', '--report-dir', 'out', '--seed', '1'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/it exists and is not a folder/);
    expect(r.stdout).not.toContain('certifying');
  });

  it('run --update-expect-failures: a list in a folder that does not exist → exit 2 before any case runs', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--only',
        'signature.generate-upload-url',
        '--no-reports',
        '--expect-failures',
        'nowhere/list.yaml',
        '--update-expect-failures',
      ],
      { cwd },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--expect-failures .*nowhere\/list\.yaml cannot be written: its folder .*nowhere does not exist/,
    );
    expect(r.stdout).not.toMatch(/passed/);
  });
});

describe('--update-expect-failures with --only', () => {
  it('keeps the entries (and their reasons) of cases outside the selection, drops those of cases that pass now and of cases that do not exist', async () => {
    const cwd = tmp();
    const list = join(cwd, 'failures.yaml');
    const member = join(process.cwd(), 'test/zoo/members/uppercase-hex.ts');
    writeFileSync(
      list,
      [
        '- id: signature.generate-upload-url',
        '  reason: our signer writes upper-case hex',
        '- id: authorization.order-appid-sign-timestamp-nonce',
        '  reason: passes now',
        '- id: signature.final-lf-missing',
        '  reason: tracked in JIRA-1',
        '- id: signature.gone',
        '  reason: removed case',
        '',
      ].join('\n'),
    );
    const r = await run(
      [
        'run',
        '--module',
        member,
        '--only',
        'signature.generate-upload-url,authorization.order-appid-sign-timestamp-nonce',
        '--no-reports',
        '--expect-failures',
        list,
        '--update-expect-failures',
      ],
      { cwd },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 kept for cases this run did not select');
    const text = readFileSync(list, 'utf8');
    expect(text).toContain('- id: signature.final-lf-missing\n  reason: tracked in JIRA-1\n');
    expect(text).toContain('- id: signature.generate-upload-url\n  reason: our signer writes upper-case hex\n');
    expect(text).not.toContain('authorization.order-appid-sign-timestamp-nonce');
    expect(text).not.toContain('signature.gone');
  });
});

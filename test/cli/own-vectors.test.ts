/**
 * Cases of one's own beside the kit's (issue 13, item 6): `vectors init <dir>` makes a folder that
 * loads with the kit's schemas and flags (no copy of them); `run --vectors kit,<dir>` runs both,
 * ids unique across them; generate and the --save options make the folders they write in when
 * missing, print every problem of a folder that does not load, refuse to write inside an installed
 * kit, and say where to write instead.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseInsideInstalledKit, installedKit } from '../../src/cli/_installed.js';
import { UsageError } from '../../src/cli/command.js';
import { GENERATE_KINDS } from '../../src/generate/areas.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import { OWN_NOTES } from '../../src/vectors/target.js';
import { tempFolders } from '../_support.js';
import { run } from './_run.js';

const tmp = tempFolders('pgv2kit-own-');
const kitCases = liveCases(loadVectorSet()).length;
/** A zoo member whose bug only property.lf.sign reaches: its counterexample is a signature case. */
const LF_DROPPED = new URL('../zoo/members/large-body-lf-dropped.ts', import.meta.url).pathname;

describe.concurrent('vectors init, and run --vectors kit,<dir>', () => {
  it("makes a folder with one example case that validates and runs beside the kit's, reported under its folder", async () => {
    const cwd = tmp();
    const init = await run(['vectors', 'init', 'mine'], { cwd });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('run it:    pgv2kit run --vectors kit,mine');
    for (const f of ['README.md', 'signature/own.yaml', 'notes.yaml'])
      expect(existsSync(join(cwd, 'mine', f)), f).toBe(true);
    expect(existsSync(join(cwd, 'mine', 'schema'))).toBe(false);
    expect((await run(['vectors', '--dir', 'mine'], { cwd })).code).toBe(0);
    const r = await run(
      ['run', '--vectors', 'kit,mine', '--only', 'signature', '--no-properties', '--report-dir', 'r'],
      { cwd },
    );
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(cwd, 'r/results.json'), 'utf8')) as {
      cases: Array<{ id: string; file: string; verdict: string }>;
    };
    expect(results.cases.find((c) => c.id === 'signature.own-example')).toMatchObject({
      file: 'mine/signature/own.yaml',
      verdict: 'passed',
    });
    expect(results.cases.filter((c) => c.file.startsWith('signature/')).length).toBe(
      liveCases(loadVectorSet()).filter((l) => l.case.kind === 'signature').length,
    );
    // the folder alone runs too
    const alone = await run(['run', '--vectors', 'mine', '--no-properties', '--no-reports'], { cwd });
    expect(alone.stdout).toMatch(/\n1 passed, 0 failed\n$/);
  });

  it("a case of one's own that fails is reported like the kit's", async () => {
    const cwd = tmp();
    // a folder name sh would split or expand: the commands init prints are quoted for pasting (issue 25, item 2)
    const init = await run(['vectors', 'init', "o'wn $(x)"], { cwd });
    expect(init.stdout).toContain(`check it:  pgv2kit vectors --dir 'o'\\''wn $(x)'\n`);
    expect(init.stdout).toContain(`run it:    pgv2kit run --vectors 'kit,o'\\''wn $(x)' --testee '<your adapter>'\n`);
    const file = join(cwd, "o'wn $(x)/signature/own.yaml");
    const text = readFileSync(file, 'utf8');
    const sign = /sign: ([0-9a-f]{64})/.exec(text)?.[1] ?? '';
    writeFileSync(file, text.replace(sign, `${sign.slice(0, 63)}${sign.endsWith('0') ? '1' : '0'}`));
    // the reference signs it right, so the case's wrong sign is what fails
    const r = await run(
      ['run', '--vectors', "kit,o'wn $(x)", '--only', 'id:signature.own-example', '--no-properties', '--no-reports'],
      { cwd },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAILED signature.own-example: signature.sign: sign differs from the expected');
  });

  it.each([
    [['vectors', 'init'], 'vectors init takes one folder'],
    [['vectors', 'init', 'a', 'b'], 'vectors init takes one folder'],
    [['run', '--vectors', 'kit,kit', '--no-reports'], 'twice'],
    [['run', '--vectors', ',mine', '--no-reports'], '--vectors takes folders separated by commas'],
  ])('%j → exit 2', async (argv, message) => {
    const r = await run(argv, { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('refuses a folder that is not empty, and an id the kit already has', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'keep.txt'), 'x');
    const refused = await run(['vectors', 'init', '.'], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('exists and is not an empty folder');
    await run(['vectors', 'init', 'mine'], { cwd });
    const file = join(cwd, 'mine/signature/own.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('id: signature.own-example', 'id: signature.final-lf-missing'),
    );
    const clash = await run(['run', '--vectors', 'kit,mine', '--no-reports'], { cwd });
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(
      /id signature\.final-lf-missing is already used in signature\/[\w-]+\.yaml of the kit's vectors/,
    );
    // checked alone, the folder is valid, and says what would happen beside the kit's
    const alone = await run(['vectors', '--dir', 'mine'], { cwd });
    expect(alone.code).toBe(0);
    expect(alone.stdout).toContain(
      "signature/own.yaml: case signature.final-lf-missing has the id of a case of the kit's vectors",
    );
    const missing = await run(['run', '--vectors', 'kit,nope', '--no-reports'], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read the vectors folder ${join(cwd, 'nope')}`);
    expect(kitCases).toBeGreaterThan(300);
  });
});

describe("writing cases into a folder of one's own (issue 20, item 4)", () => {
  it.each(GENERATE_KINDS)(
    'generate --area %s --dir <a folder made by vectors init> writes there, making the area folder',
    async (area) => {
      const cwd = tmp();
      await run(['vectors', 'init', 'mine'], { cwd });
      const notes = readFileSync(join(cwd, 'mine', 'notes.yaml'), 'utf8');
      const r = await run(['generate', '--seed', '3', '--count', '2', '--area', area, '--dir', 'mine'], { cwd });
      expect(r.code, r.stderr).toBe(0);
      const made = area === 'signature' ? '' : `made ${join(cwd, 'mine', area)}/\n`;
      expect(r.stdout).toBe(
        `${made}wrote 2 ${area} cases to ${join(cwd, 'mine', area, 'generated-3.yaml')}\n  ${area}.gen-3-1\n  ${area}.gen-3-2\nOK: the vector set in ${join(cwd, 'mine')} validates (3 cases)\n`,
      );
      // the flag Generated is the kit's: the folder's notes.yaml is left as init made it, and nothing warns
      expect(readFileSync(join(cwd, 'mine', 'notes.yaml'), 'utf8')).toBe(notes);
      expect(loadVectorSet(join(cwd, 'mine')).warnings).toEqual([]);
    },
  );

  it('run --save in a new project makes vectors/<area>/ and notes.yaml; a folder that does not load is refused before the run, every problem printed', async () => {
    const cwd = tmp();
    const save = [
      'run',
      '--module',
      LF_DROPPED,
      '--only',
      'property.lf.sign',
      '--seed',
      '3',
      '--properties',
      '25',
      '--no-reports',
      '--save',
      'vectors/signature/found.yaml',
    ];
    const first = await run(save, { cwd });
    expect(first.code).toBe(1);
    expect(first.stdout).toContain(
      `made ${join(cwd, 'vectors')}/, ${join(cwd, 'vectors', 'signature')}/ and ${join(cwd, 'vectors', 'notes.yaml')}\nsaved 1 counterexample as signature.gen-property-1 in ${join(cwd, 'vectors', 'signature', 'found.yaml')}\n`,
    );
    expect(readFileSync(join(cwd, 'vectors', 'notes.yaml'), 'utf8')).toBe(OWN_NOTES);
    // two broken files: the next --save (and fuzz --save) is refused before it runs, naming each problem, not only their number
    writeFileSync(join(cwd, 'vectors', 'signature', 'a.yaml'), 'kind: signature\n');
    writeFileSync(join(cwd, 'vectors', 'signature', 'b.yaml'), 'kind: webhook\ntitle: t\ncases: []\n');
    const before = readFileSync(join(cwd, 'vectors', 'signature', 'found.yaml'), 'utf8');
    for (const [argv, command] of [
      [save, 'run'],
      [['fuzz', '--runs', '10', '--save', 'vectors/authorization/found.yaml'], 'fuzz'],
    ] as const) {
      const refused = await run(argv, { cwd });
      expect([refused.code, refused.stdout], command).toEqual([2, '']);
      expect(refused.stderr).toContain(
        `pgv2kit ${command}: --save: the vector set in ${join(cwd, 'vectors')} does not load: 3 problems in the vector files:\n`,
      );
      for (const line of [
        'signature/a.yaml: at /: title is required',
        'signature/a.yaml: at /: cases is required',
        'signature/b.yaml: at /kind: kind is "webhook", but the file is in the signature/ folder',
      ])
        expect(refused.stderr).toContain(`\n  ${line}\n`);
    }
    expect(readFileSync(join(cwd, 'vectors', 'signature', 'found.yaml'), 'utf8')).toBe(before);
    expect(existsSync(join(cwd, 'vectors', 'authorization'))).toBe(false);
  });

  it('--save and generate refuse, before anything runs, a path with no folder above its vectors folder', async () => {
    const cwd = tmp();
    const r = await run(['run', '--save', 'no/such/vectors/signature/found.yaml', '--no-reports'], { cwd });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `pgv2kit run: --save: the folder the vectors folder goes in, ${join(cwd, 'no', 'such')}, does not exist\nsee pgv2kit run --help\n`,
    ]);
    const g = await run(['generate', '--seed', '1', '--count', '1', '--area', 'redirect', '--dir', 'no/such/vectors'], {
      cwd,
    });
    expect([g.code, g.stderr.split('\n')[0]]).toEqual([
      2,
      `pgv2kit generate: --dir: the folder the vectors folder goes in, ${join(cwd, 'no', 'such')}, does not exist`,
    ]);
    expect(existsSync(join(cwd, 'no'))).toBe(false);
  });
});

describe('writing inside an installed kit', () => {
  const installed = '/srv/app/node_modules/pgv2kit';

  it('is refused, naming where to write instead; a clone of the kit is not an installed one', () => {
    expect(installedKit(installed)).toBe(true);
    expect(installedKit('/home/dev/pgv2kit')).toBe(false);
    expect(() => refuseInsideInstalledKit(`${installed}/vectors/signature/x.yaml`, '--out', installed)).toThrow(
      UsageError,
    );
    expect(() => refuseInsideInstalledKit(`${installed}/vectors/signature/x.yaml`, '--out', installed)).toThrow(
      /is inside the installed pgv2kit package.*pgv2kit vectors init my-vectors/,
    );
    expect(() => refuseInsideInstalledKit('/srv/app/my-vectors/signature/x.yaml', '--out', installed)).not.toThrow();
    expect(() =>
      refuseInsideInstalledKit('/srv/app/node_modules/pgv2kit-other/x.yaml', '--out', installed),
    ).not.toThrow();
    expect(() => refuseInsideInstalledKit(`${installed}/vectors/x.yaml`, '--out', '/home/dev/pgv2kit')).not.toThrow();
  });
});

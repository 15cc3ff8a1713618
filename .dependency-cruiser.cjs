/**
 * The layers of src/, read top to bottom (issue 11): each may import from the layers below it,
 * never from one above, with no cycles and no reach into another folder's `_` files.
 *
 *   scheme, version, seeded, env, deps, safe-name, bytes, errors, file-errors, atomic-file, closest, shell-quote, refusal → vectors, upload, docs,
 *   roles/<role>/kind.ts → protocol →
 *   subjects, client, roles/<role>/as-gateway, roles/<role>/subject.ts, roles/<role>/answer.ts → checks, roles/<role>/check.ts → diagnosis, roles/<role>/diagnosis.ts →
 *   roles/<file>.ts, roles/<role>/role.ts → properties, fuzz, generate → runner → reports → gateway, roles/<role>/certify,
 *   roles/<role>/reference-gateway.ts, conformance → live → cli, index, run
 *
 * Type-only imports count: a type is a dependency too.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const LAYERS = [
  [
    'scheme',
    'version.ts',
    'seeded.ts',
    'env.ts',
    'deps.ts',
    'safe-name.ts',
    'bytes.ts',
    'errors.ts',
    'file-errors.ts',
    'atomic-file.ts',
    'closest.ts',
    'shell-quote.ts',
    'refusal.ts',
  ],
  // a role's kind.ts (the case type of a kind the role brings) with the vectors
  ['vectors', 'upload', 'docs', '^src/roles/[^/]+/kind\\.ts$'],
  ['protocol'],
  // a role's folder (src/roles/<role>/) holds its parts at their layers, by name: as-gateway/ and subject.ts
  // with the subjects, check.ts with the checks, diagnosis.ts with the diagnosis, role.ts with the registry,
  // certify/ and reference-gateway.ts (the kit's own server of the other party) with the commands' work
  // answer.ts: a role's reading and judging of the other party's answer, shared by its subject, its check and live/
  [
    'subjects',
    'client',
    '^src/roles/[^/]+/as-gateway/',
    '^src/roles/[^/]+/subject\\.ts$',
    '^src/roles/[^/]+/answer\\.ts$',
  ],
  ['checks', '^src/roles/[^/]+/check\\.ts$'],
  ['diagnosis', '^src/roles/[^/]+/diagnosis\\.ts$'],
  ['^src/roles/[^/]+\\.ts$', '^src/roles/[^/]+/role\\.ts$'],
  ['properties', 'fuzz', 'generate'],
  ['runner'],
  ['reports'],
  ['gateway', '^src/roles/[^/]+/certify/', '^src/roles/[^/]+/reference-gateway\\.ts$', 'conformance.ts'],
  // live traffic (issue 26): exchanges, their judge (the gateway's own judgement of a request, the roles' of an
  // answer, the diagnosis's mistakes) and HAR 1.2, under the proxy and check commands
  ['live'],
  ['cli', 'index.ts', 'run.ts'],
];
const path = (name) =>
  name.startsWith('^') ? name : `^src/${name.replace('.', '\\.')}${name.endsWith('.ts') ? '$' : '/'}`;
const above = (i) =>
  LAYERS.slice(i + 1)
    .flat()
    .map(path);

module.exports = {
  forbidden: [
    // a lazily loaded module may look back at its loader (a command's work at its declaration): a
    // dynamic import runs after both modules loaded, so only cycles without one are refused
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle between modules',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    ...LAYERS.slice(0, -1).flatMap((layer, i) =>
      layer.map((name) => ({
        name: `layer-${name.startsWith('^') ? name.replace(/[^a-z-]+/g, '-').replace(/^-|-$/g, '') : name.replace('.ts', '')}`,
        severity: 'error',
        comment: `${name} imports a layer above it (${LAYERS.slice(i + 1)
          .flat()
          .join(', ')})`,
        from: { path: path(name) },
        to: { path: above(i) },
      })),
    ),
    {
      name: 'no-reach-into-private',
      severity: 'error',
      comment: "another folder's _ file: export what is shared from a file without _",
      from: { path: '^src/([^/]+)/' },
      to: { path: '/_[^/]+[.]ts$', pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: '^src/',
  },
};

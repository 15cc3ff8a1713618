/**
 * The gateway zoo: each member is the reference gateway behind a front with one bug a gateway team
 * really ships (./proxy.ts), and the gateway-role cases that must fail because of it — chosen by hand from
 * the rule the bug breaks, never read back from a run.
 */
import { header, rewriteJson, withHeader, type GatewayBug, type Message, type Reply } from './proxy.js';
import { partsOf, withParts } from './multipart.js';

/** A member: its bug, and the cases it must fail (each must fail; others may too). */
export interface ZooMember {
  readonly id: string;
  /** The bug, as its developer would describe the code. */
  readonly what: string;
  readonly bug: GatewayBug;
  readonly mustFail: readonly string[];
}

const refuse = (why: string): Reply => ({
  status: 400,
  headers: [['Content-Type', 'application/json']],
  body: Buffer.from(JSON.stringify({ code: 'INVALID_REQUEST', errorMessage: why })),
});
const stored: Reply = { status: 204, headers: [], body: Buffer.alloc(0) };
const isCredentials = (m: Message): boolean => /\/generateUploadUrl(\?|$)/.test(m.target);
/** An "accepts X" bug: the request made into one the reference accepts, and signed again, when it shows X. */
const accepts =
  (shows: (m: Message, body: Record<string, unknown> | undefined) => boolean, fix: (m: Message) => Message) =>
  (m: Message, ctx: { resign(m: Message): Message }): Message =>
    shows(m, json(m.body)) ? ctx.resign(fix(m)) : m;
const json = (body: Buffer): Record<string, unknown> | undefined => {
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};
const setField = (name: string, value: unknown) => (m: Message) => ({
  ...m,
  body: rewriteJson(m.body, (v) => {
    v[name] = value;
  }),
});

/** A scene bug: a credentials request whose scene is not DISPUTE_EVIDENCE but passes `reads` is accepted. */
const sceneAccepted = (reads: (scene: string) => boolean) =>
  accepts(
    (m, b) =>
      isCredentials(m) && typeof b?.['scene'] === 'string' && b['scene'] !== 'DISPUTE_EVIDENCE' && reads(b['scene']),
    setField('scene', 'DISPUTE_EVIDENCE'),
  );

export const GATEWAY_ZOO: readonly ZooMember[] = [
  // --- the body, verified otherwise than as sent (5.1, 5.4, R1, R3) ---
  {
    id: 'body-trimmed',
    what: 'trims the request body (String.trim) before verifying its signature',
    bug: { request: (m) => ({ ...m, body: Buffer.from(m.body.toString('utf8').trim()) }) },
    mustFail: [
      'gateway.request-body-final-lf',
      'gateway.request-body-leading-space',
      'gateway.request-payment-final-lf',
    ],
  },
  {
    id: 'body-reserialized',
    what: 'parses the JSON body and verifies the signature over JSON.stringify of it (key order kept)',
    bug: { request: (m) => (json(m.body) ? { ...m, body: Buffer.from(JSON.stringify(json(m.body))) } : m) },
    mustFail: [
      'gateway.request-body-spaces',
      'gateway.request-body-pretty',
      'gateway.request-body-unicode-escape',
      'gateway.request-payment-pretty',
    ],
  },
  {
    id: 'body-keys-sorted',
    what: 're-serializes the body with its keys sorted (a canonical JSON) before verifying',
    bug: {
      request: (m) => {
        const v = json(m.body);
        if (!v) return m;
        const sorted = Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)));
        return { ...m, body: Buffer.from(JSON.stringify(sorted)) };
      },
    },
    mustFail: ['gateway.credentials-valid', 'gateway.request-body-scene-first', 'gateway.payment-valid'],
  },
  // --- headers (4.1) ---
  {
    id: 'content-type-missing-accepted',
    what: 'reads the body as JSON whatever the Content-Type header, and a request without one',
    bug: { request: (m) => (header(m, 'content-type') ? m : withHeader(m, 'Content-Type', 'application/json')) },
    mustFail: ['gateway.request-no-content-type'],
  },
  {
    id: 'accept-missing-accepted',
    what: 'never looks at Accept when it is absent',
    bug: { request: (m) => (header(m, 'accept') ? m : withHeader(m, 'Accept', 'application/json')) },
    mustFail: ['gateway.request-no-accept'],
  },
  {
    id: 'content-type-any-accepted',
    what: 'accepts any Content-Type (text/plain included)',
    bug: { request: (m) => withHeader(m, 'Content-Type', 'application/json') },
    mustFail: ['gateway.credentials-content-type-text'],
  },
  // --- the credentials body (2.1, 2.2, 8; R13) ---
  {
    id: 'filename-missing-accepted',
    what: 'defaults a missing, null or empty filename instead of refusing',
    bug: {
      request: accepts(
        (m, b) => isCredentials(m) && b !== undefined && (typeof b['filename'] !== 'string' || b['filename'] === ''),
        setField('filename', 'evidence.pdf'),
      ),
    },
    mustFail: ['gateway.request-filename-missing', 'gateway.request-filename-null', 'gateway.request-filename-empty'],
  },
  {
    id: 'extension-not-required',
    what: 'never checks that the filename has an extension (adds .pdf when it has none)',
    bug: {
      request: accepts(
        (m, b) => isCredentials(m) && typeof b?.['filename'] === 'string' && !/\.[^./]+$/.test(b['filename']),
        (m) => setField('filename', `${String(json(m.body)?.['filename'])}.pdf`)(m),
      ),
    },
    mustFail: ['gateway.request-filename-no-extension', 'gateway.request-filename-ends-in-dot'],
  },
  {
    id: 'type-not-checked',
    what: 'accepts any file extension (gif, exe …) at the credentials request',
    bug: {
      request: accepts(
        (m, b) =>
          isCredentials(m) &&
          typeof b?.['filename'] === 'string' &&
          /\.[^./]+$/.test(b['filename']) &&
          !/\.(jpe?g|png|pdf|xlsx?)$/i.test(b['filename']),
        (m) => setField('filename', String(json(m.body)?.['filename']).replace(/\.[^./]+$/, '.pdf'))(m),
      ),
    },
    mustFail: [
      'gateway.credentials-type-not-accepted',
      'gateway.request-extension-exe',
      'gateway.request-extension-double',
    ],
  },
  {
    id: 'scene-upper-cased',
    what: 'upper-cases the scene before comparing it (dispute_evidence accepted)',
    bug: { request: sceneAccepted((scene) => scene.toUpperCase() === 'DISPUTE_EVIDENCE') },
    mustFail: ['gateway.credentials-scene-lower-case', 'gateway.request-scene-mixed-case'],
  },
  {
    id: 'scene-any-upper-case',
    what: 'checks only that the scene is upper case, not that it is a listed value',
    bug: { request: sceneAccepted((scene) => /^[A-Z_]+$/.test(scene)) },
    mustFail: ['gateway.request-scene-unlisted'],
  },
  {
    id: 'scene-trimmed',
    what: 'trims the scene before comparing it',
    bug: { request: sceneAccepted((scene) => scene.trim() === 'DISPUTE_EVIDENCE') },
    mustFail: ['gateway.request-scene-trailing-space', 'gateway.request-scene-leading-space'],
  },
  {
    id: 'content-type-length-unchecked',
    what: 'never checks the contentType length (33 characters and more accepted)',
    bug: {
      request: accepts(
        (m, b) => isCredentials(m) && typeof b?.['contentType'] === 'string' && [...b['contentType']].length > 32,
        (m) => setField('contentType', 'application/pdf')(m),
      ),
    },
    mustFail: ['gateway.request-content-type-33-chars'],
  },
  {
    id: 'filename-length-unchecked',
    what: 'never checks the filename length',
    bug: {
      request: accepts(
        (m, b) => isCredentials(m) && typeof b?.['filename'] === 'string' && [...b['filename']].length > 32,
        (m) => setField('filename', 'evidence.pdf')(m),
      ),
    },
    mustFail: ['gateway.credentials-filename-33-chars', 'gateway.request-filename-33-code-points-cjk'],
  },
  {
    id: 'length-in-bytes',
    what: 'counts the filename length in UTF-8 bytes (Buffer.byteLength), not code points',
    bug: {
      request: (m) => {
        const f = isCredentials(m) ? json(m.body)?.['filename'] : undefined;
        return typeof f === 'string' && Buffer.byteLength(f) > 32 ? refuse('filename longer than 32') : m;
      },
    },
    mustFail: ['gateway.request-filename-32-code-points-cjk', 'gateway.request-filename-32-code-points-emoji'],
  },
  {
    id: 'length-in-utf16-units',
    what: "counts the filename length in UTF-16 units (JavaScript's .length), not code points",
    bug: {
      request: (m) => {
        const f = isCredentials(m) ? json(m.body)?.['filename'] : undefined;
        return typeof f === 'string' && f.length > 32 ? refuse('filename longer than 32') : m;
      },
    },
    mustFail: ['gateway.request-filename-32-code-points-emoji'],
  },
  {
    id: 'field-types-coerced',
    what: 'coerces fields to strings (String(filename)) instead of refusing a number',
    bug: {
      request: accepts(
        (m, b) =>
          isCredentials(m) &&
          b !== undefined &&
          ['filename', 'scene', 'contentType'].some((k) => k in b && b[k] !== null && typeof b[k] !== 'string'),
        (m) => ({
          ...m,
          body: rewriteJson(m.body, (v) => {
            for (const k of ['filename', 'scene', 'contentType'])
              if (k in v && v[k] !== null && typeof v[k] !== 'string')
                v[k] = k === 'scene' ? 'DISPUTE_EVIDENCE' : `${String(v[k])}.pdf`;
          }),
        }),
      ),
    },
    mustFail: [
      'gateway.request-filename-number',
      'gateway.request-scene-number',
      'gateway.request-content-type-number',
    ],
  },
  // --- the Authorization header (5.3, R7, R8) ---
  {
    id: 'signature-not-verified',
    what: 'parses the Authorization header but never compares the sign',
    bug: { request: (m, ctx) => ctx.resign(m) },
    mustFail: [
      'gateway.credentials-changed-body',
      'gateway.credentials-changed-url',
      'gateway.credentials-changed-secret',
      'gateway.payment-changed-body',
    ],
  },
  {
    id: 'duplicate-item-accepted',
    what: 'reads the items into a map: a duplicated item overwrites the first',
    bug: {
      request: (m, ctx) => {
        const names = (header(m, 'authorization') ?? '').split(',').map((i) =>
          i
            .trim()
            .split('=')[0]
            ?.replace(/^V2_SHA256\s+/, ''),
        );
        return new Set(names).size < names.length ? ctx.resign(m) : m;
      },
    },
    mustFail: ['gateway.request-header-duplicate-sign-differing', 'gateway.request-header-duplicate-nonce-differing'],
  },
  {
    id: 'missing-item-accepted',
    what: 'treats a missing item as empty and signs nothing more',
    bug: {
      request: (m, ctx) => {
        const h = header(m, 'authorization') ?? '';
        return ['appId', 'sign', 'timestamp', 'nonce'].every((n) => new RegExp(`(^|[\\s,])${n}=`).test(h))
          ? m
          : ctx.resign(m);
      },
    },
    mustFail: [
      'gateway.request-header-missing-app-id',
      'gateway.request-header-missing-sign',
      'gateway.request-header-missing-timestamp',
      'gateway.credentials-header-missing-nonce',
    ],
  },
  {
    id: 'sign-compared-as-prefix',
    what: 'compares the sign over the length received (strncmp): a short or empty sign passes',
    bug: {
      request: (m, ctx) => {
        const s = /sign=([^,]*)/.exec(header(m, 'authorization') ?? '')?.[1];
        return s !== undefined && s.length < 64 ? ctx.resign(m) : m;
      },
    },
    mustFail: ['gateway.request-header-empty-sign', 'gateway.request-header-sign-63-hex'],
  },
  {
    id: 'sign-not-hex-checked',
    what: 'never checks that the sign is 64 hex digits',
    bug: {
      request: (m, ctx) => {
        const s = /sign=([^,]*)/.exec(header(m, 'authorization') ?? '')?.[1];
        return s !== undefined && !/^[0-9a-fA-F]{64}$/.test(s) ? ctx.resign(m) : m;
      },
    },
    mustFail: ['gateway.request-header-sign-65-hex', 'gateway.request-header-sign-non-hex'],
  },
  {
    id: 'any-scheme-accepted',
    what: 'skips the first word of the Authorization header whatever it is',
    bug: {
      request: (m, ctx) => (/^V2_SHA256 /i.test(header(m, 'authorization') ?? 'V2_SHA256 ') ? m : ctx.resign(m)),
    },
    mustFail: ['gateway.credentials-other-scheme'],
  },
  {
    id: 'unsigned-accepted',
    what: 'lets a request without Authorization through (an auth middleware mounted on the wrong path)',
    bug: { request: (m, ctx) => (header(m, 'authorization') === undefined ? ctx.resign(m) : m) },
    mustFail: ['gateway.credentials-unsigned', 'gateway.request-payment-unsigned'],
  },
  // --- the 200 response (4.1, 2.3, 2.4, 5.4) ---
  {
    id: 'response-text-plain',
    what: "answers 200 with Content-Type text/plain (the framework's default for a string)",
    bug: { reply: (r) => (r.status === 200 ? withHeader(r, 'Content-Type', 'text/plain') : r) },
    mustFail: ['gateway.credentials-valid'],
  },
  {
    id: 'response-unsigned',
    what: 'answers 200 without an Authorization header',
    bug: { reply: (r) => (r.status === 200 ? withHeader(r, 'Authorization', undefined) : r) },
    mustFail: ['gateway.credentials-valid', 'gateway.payment-valid'],
  },
  {
    id: 'response-signed-before-rewrite',
    what: 'signs the response body, then pretty-prints it when sending',
    bug: {
      reply: (r) => {
        const v = r.status === 200 ? json(r.body) : undefined;
        return v ? { ...r, body: Buffer.from(JSON.stringify(v, null, 2)) } : r;
      },
    },
    mustFail: ['gateway.credentials-valid', 'gateway.payment-valid'],
  },
  {
    id: 'form-content-type-fixed',
    what: 'issues the Content-Type form field as application/octet-stream whatever was requested',
    bug: {
      reply: (r, req, ctx) => {
        if (r.status !== 200 || !isCredentials(req)) return r;
        const body = rewriteJson(r.body, (v) => {
          const ff = (v['data'] as { formFields?: Record<string, string> } | undefined)?.formFields;
          if (ff && 'Content-Type' in ff) ff['Content-Type'] = 'application/octet-stream';
        });
        return ctx.resignReply({ ...r, body }, req);
      },
    },
    mustFail: ['gateway.credentials-valid'],
  },
  {
    id: 'error-message-on-success',
    what: 'answers success with errorMessage "success" instead of null',
    bug: {
      reply: (r, req, ctx) =>
        r.status === 200
          ? ctx.resignReply({ ...r, body: rewriteJson(r.body, (v) => void (v['errorMessage'] = 'success')) }, req)
          : r,
    },
    mustFail: ['gateway.credentials-valid', 'gateway.payment-valid'],
  },
  // --- the upload (4.2, 2.2, 8; R13, R14) ---
  {
    id: 'upload-no-file-accepted',
    what: 'stores the upload when no part is named file (the form fields alone)',
    bug: { upload: async (m) => ((await partsOf(m))?.some((p) => p.name === 'file') === false ? stored : m) },
    mustFail: ['gateway.upload-no-file-part'],
  },
  {
    id: 'upload-any-part-name',
    what: 'takes the first file-like part whatever its name',
    bug: {
      upload: async (m) => {
        const parts = await partsOf(m);
        if (!parts || parts.some((p) => p.name === 'file')) return m;
        return withParts(
          m,
          parts.map((p) => (p.data !== undefined ? { ...p, name: 'file' } : p)),
        );
      },
    },
    mustFail: ['gateway.upload-file-named-upload', 'gateway.upload-file-named-capital-file'],
  },
  {
    id: 'upload-parts-after-file-ignored',
    what: 'stops reading the form at the file part: what follows is ignored, not refused',
    bug: {
      upload: async (m) => {
        const parts = await partsOf(m);
        const at = parts?.findIndex((p) => p.name === 'file') ?? -1;
        return parts && at >= 0 && at < parts.length - 1 ? withParts(m, parts.slice(0, at + 1)) : m;
      },
    },
    mustFail: ['gateway.upload-text-after-file', 'gateway.upload-two-file-parts'],
  },
  {
    id: 'upload-not-multipart-accepted',
    what: 'stores any body, multipart or not',
    bug: { upload: async (m) => ((await partsOf(m)) === undefined ? stored : m) },
    mustFail: ['gateway.upload-urlencoded-body', 'gateway.upload-raw-file-body'],
  },
  {
    id: 'upload-any-method',
    what: 'routes every method of the upload address to the upload handler',
    bug: { upload: (m) => (m.method === 'POST' ? m : { ...m, method: 'POST' }) },
    mustFail: ['gateway.upload-method-put'],
  },
  {
    id: 'upload-fields-not-checked',
    what: 'never checks the form fields against the policy: every refusal of the store becomes a 204',
    bug: { uploadReply: (r) => (r.status >= 400 && r.status < 500 ? stored : r) },
    mustFail: [
      'gateway.upload-field-removed',
      'gateway.upload-field-changed',
      'gateway.upload-field-added',
      'gateway.upload-key-removed',
      'gateway.upload-policy-changed',
    ],
  },
  {
    id: 'upload-size-unchecked',
    what: 'never checks the file size (content-length-range ignored)',
    bug: {
      upload: async (m) => {
        const parts = await partsOf(m);
        const file = parts?.find((p) => p.name === 'file');
        return file?.data && file.data.length > 2_097_152 ? stored : m;
      },
    },
    mustFail: ['gateway.upload-over-size'],
  },
];

/**
 * A zoo gateway of its own: a panel gateway (test/panel/gateways/) copied with one bug — the one line `bug` names
 * replaced — into a temporary file, so the zoo keeps no second copy of the panel's code.
 */
export interface IndependentMember {
  readonly id: string;
  readonly what: string;
  /** The panel gateway it is copied from, relative to the kit's root. */
  readonly from: string;
  /** The line changed: its text in the panel gateway (once), and what the copy has instead. */
  readonly bug: readonly [string, string];
  readonly mustFail: readonly string[];
}

export const INDEPENDENT_ZOO: readonly IndependentMember[] = [
  {
    id: 'node-trims-body',
    what: 'node-lenient-gateway with the body trimmed (String.prototype.trim) before its signature content is built',
    from: 'test/panel/gateways/node-lenient-gateway.mjs',
    bug: ['  hash.update(body);', "  hash.update(body.toString('utf8').trim());"],
    mustFail: [
      'gateway.request-body-final-lf',
      'gateway.request-body-leading-space',
      'gateway.request-payment-final-lf',
    ],
  },
  {
    id: 'node-length-utf16',
    what: 'node-lenient-gateway counting lengths in UTF-16 units (String.prototype.length), not code points (R13)',
    from: 'test/panel/gateways/node-lenient-gateway.mjs',
    bug: ['[...value].length > maxLength', 'value.length > maxLength'],
    mustFail: ['gateway.request-filename-32-code-points-emoji'],
  },
];

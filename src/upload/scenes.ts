/**
 * The upload scenes (spec §2.2) and the length limits of the credentials request
 * (spec §2.1, §8), as data.
 *
 * Reading R13: "2 MB" is 2,097,152 bytes; file types are judged by the file name's
 * extension; lengths count Unicode code points; scene must equal a listed value exactly.
 * @module
 */

/** What the spec says about one scene (spec §2.2, §8). */
export interface SceneRule {
  /** What the scene is for (§2.2 "Meaning"). */
  readonly meaning: string;
  /** The accepted file types, as lower-case extensions without the dot, in the spec's order. */
  readonly extensions: readonly string[];
  /** The largest accepted file, in bytes (R13: 2 MB = 2,097,152). */
  readonly maxFileSize: number;
}

/**
 * The scenes of spec §2.2, by name. DISPUTE_EVIDENCE accepts jpg, jpeg, png, pdf,
 * xls, xlsx up to 2 MB, read as 2,097,152 bytes (R13; the spec's §8 repeats both limits).
 * @example SCENES.DISPUTE_EVIDENCE.maxFileSize // 2097152
 */
export const SCENES = Object.freeze({
  DISPUTE_EVIDENCE: Object.freeze({
    meaning: 'Dispute evidence files',
    extensions: Object.freeze(['jpg', 'jpeg', 'png', 'pdf', 'xls', 'xlsx'] as const),
    maxFileSize: 2_097_152,
  }),
}) satisfies Readonly<Record<string, SceneRule>>;

/** A scene listed in {@link SCENES}. */
export type SceneName = keyof typeof SCENES;

/**
 * The scene names in the order of spec §2.2.
 * @example SCENE_NAMES.includes('DISPUTE_EVIDENCE') // true
 */
export const SCENE_NAMES: readonly SceneName[] = Object.freeze(Object.keys(SCENES) as SceneName[]);

/**
 * The maximum lengths of the credentials request's string fields, in Unicode code
 * points (spec §2.1 "Max length", §8; R13 counts code points, not UTF-16 units or bytes).
 * @example CREDENTIALS_LIMITS.filename // 32
 */
export const CREDENTIALS_LIMITS = Object.freeze({
  filename: 32,
  contentType: 32,
  scene: 50,
} as const);

/**
 * Whether a string is a listed scene, compared exactly (case-sensitive, R13).
 * @param name - a candidate scene
 * @returns true for the names of {@link SCENES}
 * @example isSceneName('DISPUTE_EVIDENCE') // true
 * @example isSceneName('dispute_evidence') // false
 */
export function isSceneName(name: string): name is SceneName {
  return Object.hasOwn(SCENES, name);
}

/**
 * The extension of a file name: the text after its last ".", as written (no case change).
 * A name with no "." or with nothing after the last "." has none (spec §2.1 "must include
 * an extension"). A leading dot counts: `.pdf` has the extension `pdf`.
 * @param filename - the file name
 * @returns the extension without the dot, or undefined when there is none
 * @example fileExtension('scan.final.PDF') // 'PDF'
 * @example fileExtension('README') // undefined
 */
export function fileExtension(filename: string): string | undefined {
  const dot = filename.lastIndexOf('.');
  if (dot < 0 || dot === filename.length - 1) return undefined;
  return filename.slice(dot + 1);
}

/**
 * The number of Unicode code points in a string: the unit of every length limit (R13).
 * A lone surrogate counts as one.
 * @param text - the text
 * @returns its length in code points
 * @example codePointLength('😀') // 1 — two UTF-16 units, four UTF-8 bytes
 */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

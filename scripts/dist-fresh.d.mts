/** The newest change under a folder: of its files matching `files`, and of its folders. */
export function newest(dir: string, files: RegExp): number;
/** Whether dist/ is as new as src/ and the build's settings (its entry and the vectors' snapshot exist). */
export function distFresh(root: string): boolean;

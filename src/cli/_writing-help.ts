/**
 * What every command that writes vector cases (`generate`, `run --save`, `fuzz --save`) says in
 * its --help about where it writes: one text, so the three say the same (a module of its own with
 * no imports: the commands' declarations load it with their help).
 * @module
 */

/** The lines of --help on where vector cases are written, and what is never touched. */
export const WRITING_VECTORS_HELP: readonly string[] = [
  'The file is in a kind folder of a vectors folder; what is missing is made: the vectors',
  "folder (in an existing folder), the kind folder, and a notes.yaml for flags of one's own, as",
  'pgv2kit vectors init makes it. Inside an installed kit nothing is written. In a clone of the',
  'kit a new file may go into its vectors/ folder, but an existing file of it is never edited,',
  'nor its notes.yaml (the flags these commands write, Generated and FuzzFinding, are explained',
  'there already). The whole set is loaded before and after writing; if it does not load, every',
  'problem is printed and nothing is kept.',
];

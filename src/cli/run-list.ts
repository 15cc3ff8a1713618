/**
 * `pgv2kit run --list`: the cases and properties a run would run against its target, one line
 * each with the operations it needs and what the target does not offer, then the counts — the
 * cases left to other targets (kit-internal operations) said apart, by the rule the run uses.
 * @module
 */
import { caseOperations } from '../roles/run-case.js';
import { PROPERTIES } from '../properties/catalogue.js';
import { forOtherTargets, selectionLine } from '../runner/other-targets.js';
import type { PropertyOptions } from '../runner/properties.js';
import { selects, type Selection } from '../runner/select.js';
import type { Subject } from '../subjects/subject.js';
import type { LoadedCase } from '../vectors/types.js';

/**
 * Prints what a run would run.
 * @param selected - the selected cases
 * @param subject - the target (its operations and name)
 * @param properties - the properties' options, or false when they do not run
 * @param selection - --only / --skip
 * @param say - where the lines go
 * @example listSelection(liveCases(set).slice(0, 2), subject, false, { only: [], skip: [] }, io.stdout)
 */
export function listSelection(
  selected: readonly LoadedCase[],
  subject: Subject,
  properties: PropertyOptions | false,
  selection: Selection,
  say: (s: string) => void,
): void {
  let others = 0;
  for (const { case: c } of selected) {
    const ops = caseOperations(c);
    const missing = ops.filter((op) => !subject.operations.includes(op));
    const other = forOtherTargets(c, subject.operations);
    if (other) others += 1;
    const mark = other
      ? '  (other targets: kit-internal)'
      : missing.length === ops.length
        ? '  (skipped: not offered)'
        : missing.length > 0
          ? `  (partial: ${missing.join(',')} not offered)`
          : '';
    say(`${c.id}  ${c.result}  ${ops.join(',')}${mark}\n`);
  }
  const props = properties
    ? PROPERTIES.filter((p) => selects({ case: { id: p.id, kind: 'property', flags: ['Property'] } }, selection))
    : [];
  for (const p of props) {
    const missing = p.operations.filter((op) => !subject.operations.includes(op));
    say(`${p.id}  property  ${p.operations.join(',')}${missing.length > 0 ? '  (skipped: not offered)' : ''}\n`);
  }
  const counts = { cases: selected.length, others, properties: props.length, name: subject.implementation.name };
  say(`${selectionLine(counts)}\n`);
}

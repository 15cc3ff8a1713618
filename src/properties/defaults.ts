/**
 * The properties' defaults (a module of its own: `pgv2kit run --help` names them without
 * loading the properties).
 * @module
 */

/** The default number of inputs per property. */
export const DEFAULT_PROPERTY_RUNS = 100;

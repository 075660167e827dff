/** A vitest reporter that prints nothing: the mutant runner prints its own table. */
export default class SilentReporter {}

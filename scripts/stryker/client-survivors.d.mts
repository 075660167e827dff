/** Why each undetected StrykerJS mutant of the typed client is left, keyed `path line:column mutator`. */
export const clientSurvivorReasons: Readonly<Record<string, string>>;

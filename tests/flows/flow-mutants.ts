/**
 * Which proxy mutant (tests/mutants) breaks the rule each Arazzo flow is about: under it, that flow
 * must fail. `npm run flows -- --mutants` runs every pair and writes reports/flows/last.md.
 */
export const flowMutants = {
  'upload-start-poll': 'status-succeeded',
  'sync-success': 'sync-answers-without-waiting',
  'sync-202-then-poll': 'sync-202-without-poll-url',
  'retry-same-key': 'replay-creates-new-tryon',
  'failure-refunded': 'no-refund-on-failure',
  'rate-limit-waited-out': 'no-retry-after',
} as const;

export type FlowId = keyof typeof flowMutants;

/** The flows in the Arazzo file that a mutant is matched to (every workflow but the shared helpers). */
export const flowIds = Object.keys(flowMutants) as FlowId[];

/** The flows a mutant is matched to (usually one). */
export function flowsBrokenBy(mutant: string): FlowId[] {
  return flowIds.filter((flow) => flowMutants[flow] === mutant);
}

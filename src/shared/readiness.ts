/** How long an instance's store may take to answer its readiness probe (`GET /readyz`) before it counts as not ready. */
export const readinessDeadlineMs = 2_000;

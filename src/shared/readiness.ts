/**
 * How long an instance's store may take to answer its readiness probe (`GET /readyz`) before it counts as
 * not ready: under the balancer's 1 s check wait, so the instance says so itself before the check gives up.
 */
export const readinessDeadlineMs = 800;

/**
 * vitest globalSetup of the conformance project: with TRYON_BASE_URL set, the run targets that URL;
 * without it, it starts the embedded reference server and fixture host and targets them. Either
 * way the frozen SuiteConfig reaches the tests through `provide('suiteConfig')`.
 */
import type { TestProject } from 'vitest/node';
import { configFromEnv, runOptionsFromEnv, type SuiteConfig } from './config.ts';
import { startEmbeddedTarget } from './embedded-target.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The CLI (`tryon-conformance run`) provides the configuration itself.
  if (project.getProvidedContext().suiteConfig) return async () => {};
  const fromEnv = configFromEnv(process.env);
  if (fromEnv) {
    project.provide('suiteConfig', fromEnv);
    return async () => {};
  }
  // The embedded target has test control, so its budget is nominal.
  const base: Omit<SuiteConfig, 'baseUrl' | 'control'> = runOptionsFromEnv(process.env, 10_000);
  const embedded = await startEmbeddedTarget(base);
  project.provide('suiteConfig', embedded.config);
  return () => embedded.close();
}

/**
 * vitest globalSetup of the conformance projects: with TRYON_BASE_URL set, the run targets that URL;
 * without it, it starts the embedded reference server and fixture host and targets them (project
 * `conformance-embedded`: one instance of the server per worker). Either way the frozen SuiteConfig
 * reaches the tests through `provide('suiteConfig')`.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { configFromEnv, runOptionsFromEnv, type SuiteConfig } from '../suite/config.ts';
import { startEmbeddedTarget } from './embedded-target.ts';
import { conformanceProjectName } from './vitest-project.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The facts the run learns about its target, shared by its workers (suite/run-facts.ts): a file made
  // only once a worker learns one, so a run stopped before its teardown leaves nothing when it learned nothing.
  const facts = join(tmpdir(), `tryon-facts-${randomUUID()}.jsonl`);
  project.provide('runFactsFile', facts);
  const forgetFacts = () => rmSync(facts, { force: true });
  const teardown = await setupTarget(project).catch((error: unknown) => {
    forgetFacts();
    throw error;
  });
  return async () => {
    forgetFacts();
    await teardown();
  };
}

async function setupTarget(project: TestProject): Promise<() => Promise<void>> {
  // The CLI (`tryon-conformance run`) provides the configuration itself.
  if (project.getProvidedContext().suiteConfig) return async () => {};
  const parallel = project.name === conformanceProjectName.embedded;
  const fromEnv = configFromEnv(process.env);
  if (fromEnv) {
    // Files in parallel share a target's credits, limits and clock: only the embedded server's instances are apart.
    if (parallel)
      throw new Error(
        `vitest project ${project.name} runs only against the embedded reference server; with TRYON_BASE_URL use project ${conformanceProjectName['any-target']}`,
      );
    project.provide('suiteConfig', fromEnv);
    return async () => {};
  }
  // The embedded target has test control, so its budget is nominal.
  const base: Omit<SuiteConfig, 'baseUrl' | 'control'> = runOptionsFromEnv(process.env, 10_000);
  const embedded = await startEmbeddedTarget(base, undefined, {
    instances: parallel ? Number(project.config.maxWorkers) : 1,
  });
  project.provide('suiteConfig', embedded.config);
  if (parallel) project.provide('embeddedInstances', [...embedded.instances]);
  return () => embedded.close();
}

import { describe, expect, it } from 'vitest';
import type { SuiteConfig } from './config.ts';
import { configOfWorker } from './worker-instance.ts';

const config: SuiteConfig = {
  baseUrl: 'http://127.0.0.1:1/api/v1',
  control: { url: 'http://127.0.0.1:1/_control', token: 'a' },
  creditBudget: 10,
  seed: 1,
  profile: 'full',
};
const instances = [
  { baseUrl: 'http://127.0.0.1:1/api/v1', control: { url: 'http://127.0.0.1:1/_control', token: 'a' } },
  { baseUrl: 'http://127.0.0.1:2/api/v1', control: { url: 'http://127.0.0.1:2/_control', token: 'b' } },
];

describe('configOfWorker', () => {
  it('is the run configuration when the run has no instances', () => {
    expect(configOfWorker(config, undefined, '2')).toBe(config);
  });

  it('gives each pool slot its own instance, and keeps the rest of the configuration', () => {
    expect(configOfWorker(config, instances, '2')).toEqual({ ...config, ...instances[1] });
    expect(configOfWorker(config, instances, '1').baseUrl).toBe(instances[0]?.baseUrl);
  });

  it('refuses a slot that has no instance of its own', () => {
    expect(() => configOfWorker(config, instances, '3')).toThrow(/2 embedded instance/);
    expect(() => configOfWorker(config, instances, 'x')).toThrow();
  });
});

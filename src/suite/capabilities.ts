/**
 * What a configuration offers the suite, before anything is sent (spec catalogue: `needs`). The
 * target may still turn out not to answer its control URL; `connectTarget` then withdraws it.
 */
import type { Capability } from '../contract/requirements.ts';
import type { SuiteConfig } from './config.ts';

export type Offers = ReadonlyMap<Capability, true | string>;

/** Each capability, offered (`true`) or the reason it is not. */
export function configuredOffers(config: SuiteConfig): Map<Capability, true | string> {
  const control = config.control !== undefined;
  const offers = new Map<Capability, true | string>();
  offers.set(
    'test-control',
    control ? true : 'no test-control URL and token were given (--control-url, TRYON_CONTROL_TOKEN)',
  );
  offers.set(
    'second-account',
    control || config.secondApiKey
      ? true
      : 'no second account key was given (TRYON_SECOND_API_KEY) and the target has no test control',
  );
  offers.set(
    'revoked-key',
    control || config.revokedApiKey
      ? true
      : 'no revoked key was given (TRYON_REVOKED_API_KEY) and the target has no test control',
  );
  offers.set('fixture-host', config.fixtureBaseUrl ? true : 'no fixture host was given (--fixture-base-url)');
  offers.set(
    'scenarios',
    control || config.scenarios
      ? true
      : 'the target is not known to follow the tryon-scenario convention (set TRYON_SCENARIOS=1 if it does)',
  );
  offers.set(
    'name-resolution',
    control
      ? true
      : 'no test-control URL and token were given: the run cannot tell the target what a host name resolves to (the resolver convention of openapi-control.yaml, PUT /names/{name})',
  );
  return offers;
}

/**
 * `tryon-conformance/server`: the reference server in-process, for an integrator's own tests.
 * @example
 * const server = await createReferenceServer({ dbPath: ':memory:', settings: withDefaults(), controlToken: 't' });
 * const origin = await server.listen('127.0.0.1', 0); // API at `${origin}/api/v1`, control at `${origin}/_control`
 * await server.close();
 */
export { createReferenceServer, type ReferenceServer } from './app.ts';
export {
  defaultSettings,
  withDefaults,
  type DecodeBudget,
  type ServerOptions,
  type ServerSettings,
  type TrustedOrigin,
} from './config.ts';
export { staticResolver, systemResolver, type Resolver } from './domain/image-fetch/resolver.ts';
export { isLoopback, isPublicUnicast } from './domain/image-fetch/address-policy.ts';

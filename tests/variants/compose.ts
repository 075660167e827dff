/** Combines proxy hooks: requests pass through each hook in order, responses in reverse order. */
import type { ProxiedRequest, ProxiedResponse, ProxyHooks } from '../mutants/mutating-proxy.ts';

const isResponse = (x: ProxiedRequest | ProxiedResponse): x is ProxiedResponse => 'status' in x;

export function compose(...hooks: readonly ProxyHooks[]): ProxyHooks {
  return {
    request: async (req, ctx) => {
      let current: ProxiedRequest = req;
      for (const h of hooks) {
        if (!h.request) continue;
        const next = await h.request(current, ctx);
        if (isResponse(next)) return next;
        current = next;
      }
      return current;
    },
    response: async (res, req, ctx) => {
      let current = res;
      for (const h of [...hooks].reverse()) if (h.response) current = await h.response(current, req, ctx);
      return current;
    },
  };
}

import { lookup } from 'node:dns/promises';

/**
 * Turns a host name into the addresses it stands for (spec "POST /tryons" rule 2: the fetcher must
 * know every address before it may connect). Injected, because DNS does not resolve on test machines.
 */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

/**
 * A resolver over a fixed table, for tests. Names are matched case-insensitively and without a
 * trailing dot; an unknown name fails like NXDOMAIN.
 */
export function staticResolver(map: Record<string, string[]>): Resolver {
  const table = new Map(Object.entries(map).map(([name, addresses]) => [normalise(name), [...addresses]]));
  return async (hostname) => {
    const addresses = table.get(normalise(hostname));
    if (addresses === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses;
  };
}

/** The operating system's resolver (every A and AAAA answer). For production only: tests inject theirs. */
export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

function normalise(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

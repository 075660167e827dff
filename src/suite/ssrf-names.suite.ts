/**
 * Spec: POST /tryons rule 2 (an image URL "must not point at a private address") and Errors ("400 |
 * INVALID_IMAGE_URL | URL not HTTPS, custom port, or private address"), through host names, where most SSRF
 * comes from: the run tells the target what a random `.test` name resolves to (test control, `PUT
 * /names/{name}`; answers never public). A name that resolves to a private address points at one: 400
 * INVALID_IMAGE_URL, nothing charged. A target that fetched instead would answer otherwise. Also IPv6
 * literals that embed a private IPv4 address, which need no test control.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { Api, balanceIfRead, noBalance } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { ControlError } from './control-client.ts';
import { embeddedPrivateAnswers, embeddedPrivateIPv6, mixedAnswers, privateClasses } from './private-addresses.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

type Position = 'person' | 'garment';

const statusOf = (ex: Exchange): number | string | undefined => ex.response?.status ?? ex.error;
const codeOf = (ex: Exchange): unknown => (ex.response?.json as { code?: unknown } | undefined)?.code;

/** A fresh random name under `.test`, so no two tests (or runs) share one. */
const randomName = (): string => `ssrf-${randomBytes(6).toString('hex')}.test`;

/**
 * Tells the target that a fresh name resolves to `addresses` and returns the name. A control that
 * does not know the path does not offer the convention (skip); any other refusal is a precondition
 * of the run's own that did not hold, unless the caller gives the reason to skip on a 400.
 */
async function nameResolvingTo(
  t: ConformanceContext,
  addresses: readonly string[],
  skipWhenRefused?: string,
): Promise<string> {
  const control = t.target.control ?? t.skip('needs name-resolution: the target has no test control');
  const name = randomName();
  try {
    await control.setNameAnswers(name, addresses);
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    if (error.status === 404 || error.status === 405) {
      t.skip(
        `needs name-resolution: the target's test control does not offer the resolver convention (${error.message})`,
      );
    }
    if (error.status === 400 && skipWhenRefused !== undefined) t.skip(`${skipWhenRefused} (${error.message})`);
    t.inconclusive(`the run could not make ${name} resolve to ${addresses.join(', ')}: ${error.message}`);
  }
  return name;
}

/** A 429 or 5xx (or no answer): answers the spec allows on any start, so the case has no verdict. */
function transient(t: ConformanceContext, ex: Exchange, what: string): void {
  const status = ex.response?.status;
  if (status === undefined || status === 429 || status >= 500)
    t.inconclusive(
      `${what} answered ${statusOf(ex)} ${String(codeOf(ex))}: an answer the spec allows on any start, so this case could not be judged`,
    );
}

/** A create body with `url` in one position and an uploaded id in the other. */
async function bodyWithUrl(api: Api, actor: Actor, at: Position, url: string): Promise<Record<string, unknown>> {
  const { personImageId, garmentImageId } = await idBody(api, actor);
  return at === 'person'
    ? { personImageUrl: url, garmentImageId, consent: true }
    : { personImageId, garmentImageUrl: url, consent: true };
}

interface Row {
  readonly label: string;
  readonly url: string;
  readonly at: Position;
  /** The URL rule the row breaks. */
  readonly rule: RequirementId;
}

/**
 * One row per answer set: a fresh .test name set to resolve to it, as person and garment in turn (starting at
 * `first`). `skipWhenRefused` ends the test with that reason when test control refuses an answer.
 */
async function nameRows(
  t: ConformanceContext,
  answers: readonly (readonly [string, readonly string[]])[],
  first: Position,
  skipWhenRefused?: (label: string, addresses: readonly string[]) => string,
): Promise<Row[]> {
  const other: Position = first === 'person' ? 'garment' : 'person';
  const rows: Row[] = [];
  for (const [i, [label, addresses]] of answers.entries()) {
    const name = await nameResolvingTo(t, addresses, skipWhenRefused?.(label, addresses));
    rows.push({
      label: `${label}: ${name} → ${addresses.join(', ')}`,
      url: `https://${name}/photo.jpg`,
      at: i % 2 === 0 ? first : other,
      rule: 'CREATE-URL-NO-PRIVATE-ADDRESS',
    });
  }
  return rows;
}

/** Sends each row, expects 400 INVALID_IMAGE_URL for it, and checks at the end that nothing was charged. */
async function expectInvalid(t: ConformanceContext, api: Api, actor: Actor, rows: readonly Row[]): Promise<void> {
  await idBody(api, actor);
  const before = await balanceIfRead(t.target, actor.key);
  const seen: string[] = [];
  for (const row of rows) {
    const ex = await api.start(actor, await bodyWithUrl(api, actor, row.at, row.url), { timeoutMs: 60_000 });
    const answer = `${statusOf(ex)} ${String(codeOf(ex))}`;
    seen.push(`${row.label} → ${answer}`);
    transient(t, ex, `${row.url} (${row.label}, ${row.at})`);
    // "must not point at a private address": the URL is refused ...
    t.must(row.rule, () =>
      expect({ case: row.label, url: row.url, at: row.at, status: statusOf(ex) }).toEqual({
        case: row.label,
        url: row.url,
        at: row.at,
        status: 400,
      }),
    );
    // ... with the code of Errors: "400 | INVALID_IMAGE_URL | URL not HTTPS, custom port, or private address".
    t.must('ERR-INVALID-IMAGE-URL', () =>
      expect({ case: row.label, url: row.url, at: row.at, answer }).toEqual({
        case: row.label,
        url: row.url,
        at: row.at,
        answer: '400 INVALID_IMAGE_URL',
      }),
    );
  }
  await t.vitest.annotate(seen.join('; '));
  // "(none) → pending: create try-on accepted | request valid, credit available": a refused start costs nothing.
  if (before === undefined) return void (await t.vitest.annotate(noBalance(t.target)));
  const after = await api.credits(actor);
  t.must('STATE-CREATE-STARTS-PENDING', () =>
    expect({ balanceAfterRefusals: after }).toEqual({ balanceAfterRefusals: before }),
  );
}

describe('image URL host names that resolve to private addresses', () => {
  conformance(
    'refuses a .test name that resolves to a private, loopback, link-local or other non-public address, each class in turn, with 400 INVALID_IMAGE_URL, and charges nothing',
    {
      covers: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
      needs: ['name-resolution'],
      starts: privateClasses.length,
      uploads: 2,
      timeoutMs: 240_000,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const answers = privateClasses.map(([label, address]) => [label, [address]] as const);
      await expectInvalid(t, api, actor, await nameRows(t, answers, 'person'));
    },
  );

  conformance(
    'refuses a .test name with several answers when any one of them is private, with 400 INVALID_IMAGE_URL, and charges nothing',
    {
      covers: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
      needs: ['name-resolution'],
      starts: mixedAnswers.length,
      uploads: 2,
      timeoutMs: 120_000,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      await expectInvalid(t, api, actor, await nameRows(t, mixedAnswers, 'garment'));
    },
  );

  conformance(
    'refuses a .test name that resolves to an IPv6 address embedding a private IPv4 one (NAT64, SIIT, IPv4-compatible, 6to4, Teredo) with 400 INVALID_IMAGE_URL, and charges nothing',
    {
      covers: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
      needs: ['name-resolution'],
      starts: embeddedPrivateAnswers.length,
      uploads: 2,
      timeoutMs: 120_000,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const answers = embeddedPrivateAnswers.map(([label, address]) => [label, [address]] as const);
      const refused = (label: string, addresses: readonly string[]) =>
        `test control refused ${addresses.join(', ')} (${label}) as an answer: the target's convention does not map names to IPv6 forms that embed a private IPv4 address`;
      await expectInvalid(t, api, actor, await nameRows(t, answers, 'person', refused));
    },
  );

  conformance(
    "refuses a .test name that resolves to the trusted fixture host's own address, on its port or the default one, with 400 INVALID_IMAGE_URL: trust belongs to the fixture origin, not to its address",
    {
      covers: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'CREATE-URL-DEFAULT-PORT-ONLY', 'ERR-INVALID-IMAGE-URL'],
      needs: ['name-resolution', 'fixture-host'],
      starts: 2,
      uploads: 2,
      timeoutMs: 90_000,
    },
    async (t) => {
      const api = new Api(t.target);
      const fixture = new URL(api.fixtureUrl('person.jpg'));
      const address = fixture.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(address) === 0)
        t.skip(`the fixture host is given by name (${fixture.hostname}): the run cannot know its address without DNS`);
      // A fixture host on a public address (`fixtures serve --host`) is out of the convention's reach.
      const name = await nameResolvingTo(
        t,
        [address],
        `test control refused ${address}, the fixture host's address, as an answer: the convention maps names only to private, loopback or reserved addresses`,
      );
      const onItsPort = new URL(fixture.href);
      onItsPort.hostname = name;
      const onDefaultPort = new URL(onItsPort.href);
      onDefaultPort.port = '';
      const rows: Row[] = [
        // Not the trusted origin, so "default port only" holds for it; and its name points at a private address.
        ...(onItsPort.port === ''
          ? []
          : [
              {
                label: `${name} → ${address}, the fixture host's port`,
                url: onItsPort.href,
                at: 'person' as const,
                rule: 'CREATE-URL-DEFAULT-PORT-ONLY' as const,
              },
            ]),
        {
          label: `${name} → ${address}, default port`,
          url: onDefaultPort.href,
          at: 'garment',
          rule: 'CREATE-URL-NO-PRIVATE-ADDRESS',
        },
      ];
      await expectInvalid(t, api, await t.ownAccount(), rows);
    },
  );
});

describe('image URLs whose IPv6 address embeds a private IPv4 address', () => {
  conformance(
    'refuses an IPv6 literal that embeds a private IPv4 address (NAT64, local-use NAT64, IPv4-mapped, SIIT, IPv4-compatible, 6to4, Teredo) with 400 INVALID_IMAGE_URL, and charges nothing',
    {
      covers: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
      starts: embeddedPrivateIPv6.length,
      uploads: 2,
      timeoutMs: 120_000,
    },
    async (t) => {
      // "must not point at a private address": each form reaches the IPv4 address it embeds. At the documented
      // 12 starts a minute, one address of each form (each start costs five seconds of the run).
      const forms = new Set<string>();
      const oneOfEach = embeddedPrivateIPv6.filter(([label]) => {
        const form = label.split(' ')[0] ?? label;
        return !forms.has(form) && forms.add(form);
      });
      const chosen = t.target.pacer.limits.starts >= 1_000 ? embeddedPrivateIPv6 : oneOfEach;
      const rows: Row[] = chosen.map(([label, address], i) => ({
        label,
        url: `https://[${address}]/photo.jpg`,
        at: i % 2 === 0 ? 'person' : 'garment',
        rule: 'CREATE-URL-NO-PRIVATE-ADDRESS',
      }));
      await expectInvalid(t, new Api(t.target), await t.ownAccount(), rows);
    },
  );
});

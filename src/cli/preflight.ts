/**
 * What `run` checks before vitest starts a test file: a setup problem is a toolkit error (one line,
 * exit 2), never a finding filed under requirements it says nothing about. In order: the target answers
 * like this API (`api-identity.ts`), test control answers as openapi-control.yaml says, the key is not
 * refused, the fixture host serves a fixture (and whether it has the behaviour routes), and how
 * balances will be read.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import { createSend, type Send } from '../client/http-client.ts';
import { withRetry } from '../client/retry.ts';
import { BalanceSetupError, decideBalance, describeBalance, type BalanceDecision } from '../suite/account-balance.ts';
import type { SuiteConfig } from '../suite/config.ts';
import { ControlError, controlClient } from '../suite/control-client.ts';
import { assertAnswersLikeTheApi } from './api-identity.ts';
import { terminalLine } from '../shared/escape.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

export interface PreflightOptions {
  /** The embedded target: its server and fixture host are ours and already up. */
  readonly embedded?: boolean;
  /** Where the progress lines go (the run's stdout). */
  readonly log?: (line: string) => void;
  readonly timeoutMs?: number;
}

/** Runs the checks and returns the config with what they found (fixture behaviours, how balances are read). */
export async function preflight(config: SuiteConfig, o: PreflightOptions = {}): Promise<SuiteConfig> {
  // Each line holds what the target answered (a code, a header): one line, its controls shown, never obeyed.
  const log = (line: string): void => o.log?.(terminalLine(line));
  const timeoutMs = o.timeoutMs ?? 15_000;
  const send = createSend({ baseUrl: config.baseUrl, alsoTo: [config.control?.url], timeoutMs, breakAfter: 1_000 });
  if (!o.embedded) await assertAnswersLikeTheApi(send, config.baseUrl, log);

  const control = config.control && controlClient(send, config.control.url, config.control.token);
  if (control && config.control) {
    try {
      await control.settings();
    } catch (error) {
      throw new ToolkitError(
        'CONTROL',
        `run: the test-control API at ${config.control.url} answered wrongly: ${oneLine(error)}`,
      );
    }
  }
  if (!control) {
    await assertKeyAccepted(send, config.baseUrl, config.apiKey, 'API key');
    await assertKeyAccepted(send, config.baseUrl, config.secondApiKey, 'second API key (TRYON_SECOND_API_KEY)');
  }

  let fixtureBehaviours = config.fixtureBehaviours;
  if (config.fixtureBaseUrl !== undefined && !o.embedded) {
    const dispatcher = fixtureDispatcher(config.fixtureBaseUrl);
    try {
      await assertFixtureHost(config.fixtureBaseUrl, dispatcher, timeoutMs);
      const probed = await hasBehaviourRoutes(config.fixtureBaseUrl, dispatcher, timeoutMs);
      if (config.fixtureBehaviours && !probed.yes) {
        throw new ToolkitError(
          'FIXTURE_HOST',
          `run: --fixture-behaviours was given, but the fixture host has no behaviour routes (${probed.said})`,
        );
      }
      fixtureBehaviours = probed.yes;
      log(
        `Fixture host ${config.fixtureBaseUrl}: ${probed.yes ? 'with' : 'without'} the behaviour routes (${probed.said})`,
      );
    } finally {
      await dispatcher.close();
    }
  }

  let balance: BalanceDecision;
  try {
    balance =
      config.balance ??
      (await decideBalance(withRetry(send), { balancePath: config.balancePath, key: config.apiKey, control }));
  } catch (error) {
    if (error instanceof BalanceSetupError) throw new ToolkitError('CONFIG', `run: ${error.message}`);
    if (error instanceof ControlError)
      throw new ToolkitError(
        'CONTROL',
        `run: the test-control API at ${config.control?.url} answered wrongly: ${oneLine(error)}`,
      );
    throw error;
  }
  log(describeBalance(balance));
  return Object.freeze({ ...config, ...(fixtureBehaviours !== undefined && { fixtureBehaviours }), balance });
}

/**
 * A key the run was given is not refused, and a 401 stops the run ("A missing, malformed or revoked
 * key gives 401 with code INVALID_API_KEY"). Asked with GET /account, which no documented rate limit
 * counts; only where the target has no GET /account (404/405) with GET /tryons/<random id>, which
 * costs one poll of the minute's 60.
 */
async function assertKeyAccepted(send: Send, baseUrl: string, key: string | undefined, what: string): Promise<void> {
  if (key === undefined) return;
  let ex = await send({ method: 'GET', path: '/account', key, operationId: 'getAccount' });
  if (ex.response?.status === 404 || ex.response?.status === 405) {
    ex = await send({
      method: 'GET',
      path: `/tryons/tc-preflight-${randomBytes(8).toString('hex')}`,
      key,
      operationId: 'getTryOn',
    });
  }
  if (ex.response?.status !== 401) return;
  const code = (ex.response.json as { code?: unknown } | undefined)?.code;
  throw new ToolkitError(
    'KEY_REFUSED',
    `run: the ${what} was refused (401${typeof code === 'string' ? ` ${code}` : ''}) at ${baseUrl}`,
  );
}

/** A loopback fixture host has a self-signed certificate (`fixtures serve`): only reachability is checked here. */
function fixtureDispatcher(fixtureBaseUrl: string): Agent {
  const host = new URL(fixtureBaseUrl).hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host.endsWith('.localhost') || host.startsWith('127.') || host === '::1';
  return new Agent({ connect: { rejectUnauthorized: !loopback }, connections: 4 });
}

/** The fixture host serves person.jpg as a JPEG (`fixtures export` / `fixtures serve` write it). */
async function assertFixtureHost(fixtureBaseUrl: string, dispatcher: Dispatcher, timeoutMs: number): Promise<void> {
  const url = `${fixtureBaseUrl}/person.jpg`;
  let said: string;
  try {
    const res = await request(url, {
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode === 200 && bytes[0] === 0xff && bytes[1] === 0xd8) return;
    said = `${res.statusCode}${res.statusCode === 200 ? ', not a JPEG' : ''}`;
  } catch (error) {
    said = (error as { code?: string }).code ?? oneLine(error);
  }
  throw new ToolkitError('FIXTURE_HOST', `run: the fixture host is unreachable: GET ${url} gave ${said}`);
}

/** Our fixture host answers /status/<n> with n: a status no ordinary file host gives for that path. */
async function hasBehaviourRoutes(
  fixtureBaseUrl: string,
  dispatcher: Dispatcher,
  timeoutMs: number,
): Promise<{ yes: boolean; said: string }> {
  const url = `${new URL(fixtureBaseUrl).origin}/status/418`;
  try {
    const res = await request(url, {
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump();
    return { yes: res.statusCode === 418, said: `GET /status/418 gave ${res.statusCode}` };
  } catch (error) {
    return { yes: false, said: `GET /status/418 failed: ${(error as { code?: string }).code ?? oneLine(error)}` };
  }
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/**
 * A sign, before a run without test control, that its target is a mock answering every request with
 * the example of its API description (Prism and the like): two try-on ids nobody made, read with the
 * key, both answered 200 with one and the same try-on. Only the plan's estimate goes by it: what the
 * tests do rests on the facts the run's own tests learn (src/suite/run-facts.ts), once a test sees it.
 */
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { createSend } from '../client/http-client.ts';
import type { SuiteConfig } from '../suite/config.ts';

/** The longest part of a target's answer the sign quotes. */
const maxQuotedChars = 40;

/** What showed that the target answers every read with its example, in words; nothing when it did not. */
export async function exampleMockSign(config: SuiteConfig): Promise<string | undefined> {
  if (config.control !== undefined || config.apiKey === undefined) return undefined;
  const dispatcher = new Agent({ connections: 1 });
  try {
    const send = createSend({ baseUrl: config.baseUrl, dispatcher, timeoutMs: 5_000 });
    const asked = [0, 1].map(() => `ton_${randomBytes(12).toString('base64url')}`);
    const answered: unknown[] = [];
    for (const id of asked) {
      const ex = await send({ method: 'GET', path: `/tryons/${id}`, key: config.apiKey });
      const json = ex.response?.status === 200 ? ex.response.json : undefined;
      answered.push(typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined);
    }
    const [first, second] = answered;
    if (typeof first !== 'string' || first !== second || asked.includes(first)) return undefined;
    return `two try-on ids nobody made were both answered 200 as try-on "${first.slice(0, maxQuotedChars)}"`;
  } catch {
    // No sign either way: the estimate plays a conforming target.
    return undefined;
  } finally {
    await dispatcher.close();
  }
}

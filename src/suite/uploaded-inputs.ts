/**
 * Inputs by uploaded id: the suite makes its fixture photos locally and uploads each once per
 * account, so the main flows need no fixture host (spec: "An id may be used in any number of
 * try-ons within its 24 hours").
 */
import { makeGarmentImage, makePersonPhoto, type FixtureFormat } from '../fixtures/images.ts';
import type { ScenarioName } from '../fixtures/scenarios.ts';
import type { Api } from './api.ts';
import { clockEpoch } from './control-client.ts';
import { Inconclusive } from './rules.ts';
import type { Actor } from './target.ts';

const cache = new Map<string, Promise<string>>();

async function uploadOnce(
  api: Api,
  actor: Actor,
  name: string,
  make: () => Promise<Buffer>,
  contentType: string,
): Promise<string> {
  // Uploaded ids live 24 h on the target's clock; a clock move may have expired every cached one.
  const key = `${clockEpoch()}\u0000${actor.key}\u0000${name}`;
  let id = cache.get(key);
  if (!id) {
    id = (async () => {
      const ex = await api.upload(actor, await make(), { filename: name, contentType });
      const body = ex.response?.json as { id?: string } | undefined;
      // A precondition of the test that uses the ids, not its verdict: uploads.suite judges uploads.
      if (ex.response?.status !== 200 || typeof body?.id !== 'string')
        throw new Inconclusive(`the upload of ${name} that the test needs answered ${ex.response?.status ?? ex.error}`);
      return body.id;
    })();
    cache.set(key, id);
    id.catch(() => cache.delete(key));
  }
  return id;
}

/**
 * A valid create body from uploaded ids; `scenario` marks the person photo, `personFormat` is the
 * person photo's format (the spec accepts "JPEG or PNG"; the garment is always PNG).
 */
export async function idBody(
  api: Api,
  actor: Actor,
  scenario?: ScenarioName,
  extra: Record<string, unknown> = {},
  personFormat: FixtureFormat = 'jpeg',
): Promise<Record<string, unknown>> {
  const extension = personFormat === 'png' ? 'png' : 'jpg';
  const [personImageId, garmentImageId] = await Promise.all([
    uploadOnce(
      api,
      actor,
      scenario ? `person-${scenario}.${extension}` : `person.${extension}`,
      () => makePersonPhoto({ format: personFormat, ...(scenario && { scenario }) }),
      `image/${personFormat}`,
    ),
    uploadOnce(api, actor, 'garment.png', () => makeGarmentImage({ format: 'png' }), 'image/png'),
  ]);
  return { personImageId, garmentImageId, consent: true, ...extra };
}

/**
 * The start command of the try-on state machine (POST /tryons or /tryons/sync with images of the
 * model, by id or by URL), and the uploads that give the model its images. Spec: What the service
 * does; POST /tryons; POST /tryons/sync; Resources (Try-on, Uploaded image).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { newIdempotencyKey } from './api.ts';
import type { FixtureFormat } from '../fixtures/images.ts';
import { exercised } from './alternatives.ts';
import {
  answerOf,
  at,
  expectStarted,
  live,
  observe,
  precondition,
  said,
  type Command,
  type Model,
  type ModelImage,
  type ModelTryOn,
  type Real,
} from './tryon-model.ts';

export class StartCommand implements Command {
  constructor(
    readonly scenario: 'normal' | 'generation-fails',
    readonly person: number,
    readonly garment: number,
    readonly sync: boolean,
    /**
     * Which inputs go by URL (the fixture host's copy of the same image), when the target has a fixture
     * host; the rest by uploaded id.
     */
    readonly byUrl: { readonly person: boolean; readonly garment: boolean } = { person: false, garment: false },
    /**
     * A rule of the moment to judge the answer by before anything else (a start just after a limit was
     * raised), with the transient statuses it must see unretried.
     */
    readonly probe?: { readonly keep: readonly number[]; judge(r: Real, ex: Exchange, what: string): void },
  ) {}
  /** The images it may pick: ids still inside their 24 hours. */
  #persons(m: Readonly<Model>): ModelImage[] {
    return m.images.filter(
      (i) => i.role === 'person' && i.failing === (this.scenario === 'generation-fails') && live(m, i),
    );
  }
  check(m: Readonly<Model>): boolean {
    // Under a lowered start limit only the limit's own commands start (tryon-limit-commands.ts).
    if (m.startsLimit !== undefined && this.probe === undefined) return false;
    return m.startsLeft > 0 && this.#persons(m).length > 0 && m.images.some((i) => i.role === 'garment' && live(m, i));
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const person = at(this.#persons(m), this.person);
    const garment = at(
      m.images.filter((i) => i.role === 'garment' && live(m, i)),
      this.garment,
    );
    fc.pre(t.target.budget.tryReserve(1));
    m.startsLeft--;
    const key = newIdempotencyKey();
    // "Each input is either a public HTTPS URL or the id of an image uploaded earlier"; "URL and id forms may
    // be mixed".
    const urls = t.target.offers.get('fixture-host') === true;
    const personUrl = urls && this.byUrl.person;
    const garmentUrl = urls && this.byUrl.garment;
    const personFile = person.failing
      ? 'scenario-generation-fails.jpg'
      : person.format === 'png'
        ? 'person.png'
        : 'person.jpg';
    const body = {
      ...(personUrl ? { personImageUrl: r.api.fixtureUrl(personFile) } : { personImageId: person.id }),
      ...(garmentUrl ? { garmentImageUrl: r.api.fixtureUrl('garment.png') } : { garmentImageId: garment.id }),
      consent: true,
    };
    const ex = await r.api.start(r.actor, body, {
      idempotencyKey: key,
      sync: this.sync,
      ...(this.probe && { keep: this.probe.keep }),
    });
    const status = ex.response?.status;
    if (status !== 200 && status !== 202) t.target.budget.giveBack(1);
    this.probe?.judge(r, ex, String(this));
    precondition(r, ex, String(this));
    if (this.sync) {
      // Sync: "200 | try-on finished within the wait" or "202 | still working when the wait ends".
      t.must('SYNC-SAME-CONTRACT-AS-CREATE', () => expect([200, 202], `${this}: ${said(ex)}`).toContain(status));
    } else {
      // "Response (success): status 200" for a valid request with credit available.
      t.must('CREATE-ACCEPTED-IS-200', () => expect(status, `${this}: ${said(ex)}`).toBe(200));
    }
    const id = answerOf(ex).id;
    // "id | string | Identifier of the try-on, returned on creation."
    t.must('RES-TRYON-ID-RETURNED-ON-CREATE', () => expect(typeof id, `${this}: id`).toBe('string'));
    const entry: ModelTryOn = {
      id: id as string,
      key,
      body,
      failing: person.failing,
      status: 'pending',
      refunded: false,
      startedAt: m.clock,
      sentAt: Date.now(),
    };
    m.tryOns.push(entry);
    const judged = this.sync ? (['SYNC-SAME-CONTRACT-AS-CREATE'] as const) : (['CREATE-ACCEPTED-IS-200'] as const);
    exercised(t, 'endpoint', this.sync ? 'POST /tryons/sync' : 'POST /tryons', ['RES-TRYON-ID-RETURNED-ON-CREATE']);
    exercised(t, 'input format', person.format === 'png' ? 'PNG' : 'JPEG', judged);
    for (const byUrl of [personUrl, garmentUrl]) exercised(t, 'input form', byUrl ? 'URL' : 'uploaded id', judged);
    if (status === 200 && this.sync) {
      // pollUrl: "Only in the create response and in a `202` from the sync endpoint."
      t.must('RES-POLL-URL-ONLY-CREATE-AND-SYNC-202', () =>
        expect('pollUrl' in answerOf(ex), `${this}: pollUrl in a sync 200`).toBe(false),
      );
      // A sync 200 is "finished within the wait"; pending is "still working when the wait ends" → 202.
      t.must('SYNC-202-STILL-PENDING', () =>
        expect(answerOf(ex).status, `${this}: a sync 200 is final`).not.toBe('pending'),
      );
      observe(r, entry, answerOf(ex), 'sync 200', m.clock);
    } else expectStarted(t, ex, entry.id, String(this), this.sync);
  }
  toString(): string {
    const what = this.scenario === 'generation-fails' ? 'generation-fails person' : 'person';
    const form = (url: boolean): string => (url ? ' by URL' : '');
    return `${this.sync ? 'POST /tryons/sync' : 'POST /tryons'} ${what} #${this.person}${form(this.byUrl.person)} garment #${this.garment}${form(this.byUrl.garment)}`;
  }
}

export type UploadKind = 'person' | 'failing person' | 'garment';

/** Uploads one image and gives its model entry, dated by the model's clock. */
export async function uploadImage(
  m: Readonly<Model>,
  r: Real,
  kind: UploadKind,
  format: FixtureFormat,
): Promise<ModelImage> {
  const id = await upload(r, kind, format);
  return {
    id,
    role: kind === 'garment' ? 'garment' : 'person',
    failing: kind === 'failing person',
    format: kind === 'garment' ? 'png' : format,
    uploadedAt: m.clock,
  };
}

/**
 * Uploads one of the machine's images (a person photo as JPEG or PNG, "Formats | JPEG or PNG"; the
 * garment and the generation-fails person in one format each); an upload that does not give an id
 * is the run's own problem here (uploads.suite judges uploads).
 */
async function upload(r: Real, kind: UploadKind, format: FixtureFormat): Promise<string> {
  const png = kind === 'person' && format === 'png';
  const bytes =
    kind === 'garment'
      ? r.photos.garment
      : kind === 'person'
        ? png
          ? r.photos.personPng
          : r.photos.person
        : r.photos.failingPerson;
  const ex = await r.api.upload(
    r.actor,
    bytes,
    kind === 'garment'
      ? { filename: 'garment.png', contentType: 'image/png' }
      : png
        ? { filename: 'person.png', contentType: 'image/png' }
        : { filename: 'person.jpg' },
  );
  const id = answerOf(ex).id;
  if (ex.response?.status !== 200 || typeof id !== 'string')
    r.t.inconclusive(`upload a ${kind} image: ${said(ex)}; the machine needs uploaded ids`);
  return id as string;
}

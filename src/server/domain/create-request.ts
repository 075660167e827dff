/**
 * The create-try-on body (spec: POST /tryons request body and rule 1; openapi.yaml
 * CreateTryOnRequest). Parses an untrusted JSON value into a request, or says which documented
 * error it earns: INVALID_REQUEST for shape problems the spec gives no code for, CONSENT_REQUIRED
 * for consent. Shape is checked before consent, as openapi.yaml's x-check-order says.
 */
export type ImageSource = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'id'; readonly id: string };

export interface CreateRequest {
  readonly person: ImageSource;
  readonly garment: ImageSource;
  readonly title: string | null;
}

export type ParseOutcome =
  | { readonly ok: true; readonly request: CreateRequest }
  | { readonly ok: false; readonly code: 'INVALID_REQUEST' | 'CONSENT_REQUIRED'; readonly message: string };

const maxTitleCodePoints = 120;

/** Parses a JSON body that is already known to be an object. */
export function parseCreateRequest(body: Record<string, unknown>): ParseOutcome {
  const person = source(body, 'person');
  if (typeof person === 'string') return invalid(person);
  const garment = source(body, 'garment');
  if (typeof garment === 'string') return invalid(garment);
  const title = body.title;
  if (title !== undefined && typeof title !== 'string') return invalid('title must be a string.');
  // Spec: "up to 120 characters"; counted in Unicode code points (openapi.yaml x-point title-length).
  if (typeof title === 'string' && [...title].length > maxTitleCodePoints) {
    return invalid(`title may be at most ${maxTitleCodePoints} characters.`);
  }
  if (body.consent !== true) return { ok: false, code: 'CONSENT_REQUIRED', message: 'consent must be true.' };
  return { ok: true, request: { person, garment, title: title ?? null } };
}

function source(body: Record<string, unknown>, who: 'person' | 'garment'): ImageSource | string {
  const urlField = `${who}ImageUrl`;
  const idField = `${who}ImageId`;
  const url = body[urlField];
  const id = body[idField];
  if (url !== undefined && typeof url !== 'string') return `${urlField} must be a string.`;
  if (id !== undefined && typeof id !== 'string') return `${idField} must be a string.`;
  if (url !== undefined && id !== undefined) return `Give exactly one of ${urlField} and ${idField}, not both.`;
  if (url !== undefined) return { kind: 'url', url };
  if (id !== undefined) return { kind: 'id', id };
  return `Give exactly one of ${urlField} and ${idField}.`;
}

function invalid(message: string): ParseOutcome {
  return { ok: false, code: 'INVALID_REQUEST', message };
}

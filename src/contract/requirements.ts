/**
 * The requirement catalogue: every rule of `spec/tryon-api-spec.md` as one requirement with a stable ID.
 * Tests name what they prove (`covers('CREATE-IDEMPOTENCY-REPLAY')`); `RequirementId` is a union of the keys
 * below, so a mistyped ID fails type checking. `requirements.test.ts` proves every quote verbatim and every
 * rule unit of the spec covered (a quote, an `alsoStated` excerpt or an `informational` unit of spec-units.ts).
 */

export type Level = 'MUST' | 'SHOULD' | 'MAY';

/** The nine parts of the spec, in document order, exactly as its `##` headings are written. */
export const specSections = [
  'What the service does',
  'Resources and their fields',
  'States and transitions',
  'Endpoints',
  'Authentication',
  'Events',
  'Errors',
  'Limits',
  'Versioning',
] as const;
export type SpecSection = (typeof specSections)[number];

/**
 * What a black-box tester needs to observe a requirement. An empty list means plain HTTP with one API key.
 * `name-resolution`: the target resolves `.test` host names as the run tells it (openapi-control.yaml, /names).
 */
export type Capability =
  | 'second-account'
  | 'revoked-key'
  | 'test-control'
  | 'fixture-host'
  | 'scenarios'
  | 'name-resolution';

export interface RequirementSpec {
  readonly level: Level;
  readonly section: SpecSection;
  /** The `###` heading the quote sits under, when there is one. */
  readonly subsection?: string;
  /** One line, normative, saying what a conforming target does. */
  readonly statement: string;
  /** A verbatim excerpt of the spec (whitespace aside) that this requirement comes from. */
  readonly quote: string;
  /** Verbatim excerpts where the spec states the same rule again; one rule stays one requirement. */
  readonly alsoStated?: readonly string[];
  readonly needs: readonly Capability[];
  /** Present only when no HTTP exchange can show the requirement, with the reason. */
  readonly notObservable?: string;
  /**
   * A client rule judged from what a caller sends (src/grade: `serve --grade-clients`, or the proxy);
   * a run against a server cannot.
   */
  readonly clientGrade?: true;
  /** The spec says "not shown": the catalogue records the point, and openapi.yaml says what is accepted. */
  readonly implementationDefined?: true;
  /** The openapi.yaml `x-point` that records the reference server's choice and what a verdict accepts. */
  readonly xPoint?: string;
}

const CLIENT = 'client guidance: it describes what a caller does, not what the server answers';
const CLIENT_GRADED =
  'a client rule: a run against a server cannot show it; the sandbox grades each caller against it (serve --grade-clients)';

export const requirements = {
  // ## What the service does

  'SVC-INPUT-URL-OR-ID': {
    level: 'MUST',
    section: 'What the service does',
    statement:
      'Each of the two inputs is accepted either as a public HTTPS URL (personImageUrl, garmentImageUrl) or as the id of an earlier upload (personImageId, garmentImageId).',
    quote: 'Each input is either a public HTTPS URL or the id of an image uploaded earlier.',
    alsoStated: [
      'HTTPS URL of the person photo',
      '`img_...` id from POST /images',
      'HTTPS URL of the garment photo',
      'one of the two garment fields | uploaded image id',
    ],
    needs: ['fixture-host'],
  },
  'SVC-POLL-UNTIL-FINAL': {
    level: 'MUST',
    section: 'What the service does',
    statement: 'A try-on started with POST /tryons and polled with GET /tryons/{id} reaches success or failed.',
    quote: 'then poll `GET /tryons/{id}` until the status is `success` or `failed`',
    needs: [],
  },
  'SVC-TYPICAL-CLIENT-FLOW': {
    level: 'SHOULD',
    section: 'What the service does',
    statement:
      'A client optionally uploads the person photo, starts the try-on with consent: true, polls every 2-3 seconds, then shows resultUrl.',
    quote:
      'Typical flow: (optional) upload the person photo, start the try-on with `consent: true`, poll every 2-3 seconds, then show `resultUrl`.',
    needs: [],
    notObservable: CLIENT,
  },
  'SVC-ONE-CREDIT-PER-FINISHED-TRYON': {
    level: 'MUST',
    section: 'What the service does',
    statement: 'A try-on that finishes as success costs exactly 1 credit, and that credit stays used.',
    quote: 'Pricing: 1 credit per finished try-on.',
    alsoStated: ['the credit stays used', '1 per finished try-on'],
    needs: ['test-control'],
  },
  'SVC-FAILED-TRYON-REFUNDED': {
    level: 'MUST',
    section: 'What the service does',
    statement: 'A try-on that ends as failed gives its credit back automatically, so it costs nothing.',
    quote: 'A try-on that fails, or cannot be started, is refunded automatically.',
    alsoStated: [
      'credit refunded automatically',
      'the credit has already been returned',
      'the credit is refunded',
      'refunded on failure',
    ],
    needs: ['scenarios', 'test-control'],
  },
  'SVC-MOST-RESULTS-UNDER-30-SECONDS': {
    level: 'SHOULD',
    section: 'What the service does',
    statement:
      'Most try-ons reach their final state within 30 seconds of the start; this is a statement about typical latency, not a per-request bound.',
    quote: 'Most results are ready in under 30 seconds.',
    needs: [],
  },
  'SVC-RESULT-AI-LABEL': {
    level: 'MUST',
    section: 'What the service does',
    statement:
      'Every result image carries a machine-readable label in its metadata saying it was made with AI (the spec does not name the metadata format).',
    quote: 'Every result image carries a machine-readable label in its metadata saying it was made with AI.',
    needs: [],
  },
  'SVC-AI-CAPTION-RECOMMENDED': {
    level: 'SHOULD',
    section: 'What the service does',
    statement: 'A client that displays a result shows a visible caption such as "AI-generated".',
    quote: 'a visible caption such as "AI-generated" is recommended when displaying it',
    needs: [],
    notObservable: 'display guidance for the caller: how a storefront shows the image is outside the API',
  },
  'SVC-SHOPPER-ADULT-AND-CONSENTING': {
    level: 'MUST',
    section: 'What the service does',
    statement:
      'A caller sends only photos of an adult shopper who is the person in the photo and agrees to its processing, and says so with consent: true.',
    quote:
      'The shopper must be an adult, must be the person in the photo, and must agree to the photo being processed.',
    needs: [],
    notObservable:
      'an obligation on the caller towards its shopper; the server sees only the consent flag (ERR-CONSENT-REQUIRED)',
  },
  'SVC-TITLE-IMPROVES-RESULT': {
    level: 'SHOULD',
    section: 'What the service does',
    statement: 'A client sends the product title, because it tells the engine what kind of garment it is placing.',
    quote: 'Sending the product title improves the result',
    needs: [],
    notObservable: 'the quality of a generated image cannot be judged by a black-box test',
  },

  // ## Resources and their fields

  'RES-TRYON-ID-RETURNED-ON-CREATE': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement:
      'The create response carries the try-on id as a string, and GET /tryons/{id} with that id reads the try-on.',
    quote: 'Identifier of the try-on, returned on creation.',
    alsoStated: ['id | string | try-on id', 'the id returned at creation'],
    needs: [],
  },
  'RES-TRYON-STATUS-VALUES': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement: 'A try-on status is always one of pending, success or failed.',
    quote: '`pending`, `success` or `failed`.',
    alsoStated: ['States of a try-on: `pending`, `success`, `failed`.'],
    needs: [],
  },
  'RES-RESULT-URL-ON-SUCCESS': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement: 'On success, resultUrl is a URL that serves the finished image as JPEG or PNG.',
    quote: 'On `success`: URL of the finished image (JPEG or PNG).',
    needs: [],
  },
  'RES-RESULT-URL-HOST-AND-PATH': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement: 'A resultUrl is served from the API host, under a path that begins /i/.',
    quote: 'served from {host} under a path beginning `/i/`',
    needs: [],
  },
  'RES-RESULT-URL-VALID-24H': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement:
      'A resultUrl keeps serving the image for 24 hours after success; the spec does not say what it answers afterwards.',
    quote: 'valid for 24 hours',
    alsoStated: ['`resultUrl` becomes available for 24 hours', 'Result URL lifetime | 24 hours'],
    needs: ['test-control'],
    xPoint: 'result-expiry',
  },
  'RES-RESULT-URL-NULL-UNLESS-SUCCESS': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement: 'On a read, resultUrl is null while the try-on is pending and when it is failed.',
    quote: '`null` in every other state.',
    needs: [],
  },
  'RES-RESULT-URL-ABSENT-FROM-CREATE': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement: 'The create response has no resultUrl field at all.',
    quote: 'Absent from the create response.',
    needs: [],
  },
  'RES-TRYON-MESSAGE-ON-FAILED': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement: 'A failed try-on carries message, a short string explanation that may be shown to a user.',
    quote: 'On `failed`: a short explanation that may be shown to a user',
    needs: ['scenarios'],
  },
  'RES-POLL-URL-ONLY-CREATE-AND-SYNC-202': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement:
      'pollUrl appears in the create response and in a sync 202, and in no GET /tryons/{id} or sync 200 response.',
    quote: 'Only in the create response and in a `202` from the sync endpoint.',
    needs: [],
  },
  'RES-POLL-URL-VALUE': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Try-on',
    statement: 'pollUrl is the path /api/v1/tryons/<id>, relative to the API host, with the id of the same try-on.',
    quote: 'Path relative to {host}, equal to `/api/v1/tryons/<id>`.',
    alsoStated: ['`/api/v1/tryons/<id>`, relative to {host}', '`pollUrl` values carry the same prefix'],
    needs: [],
  },
  'RES-IMAGE-ID-PREFIX': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Uploaded image',
    statement: 'An uploaded image id is a string that begins with img_.',
    quote: 'Begins with `img_`.',
    alsoStated: ['`id` (string, begins `img_`)'],
    needs: [],
  },
  'RES-IMAGE-ID-PERSON-OR-GARMENT': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Uploaded image',
    statement: 'An uploaded image id is accepted both as personImageId and as garmentImageId.',
    quote: 'Usable as `personImageId` or `garmentImageId`.',
    needs: [],
  },
  'RES-IMAGE-EXPIRES-AT-24H': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Uploaded image',
    statement: 'expiresAt is an ISO 8601 timestamp 24 hours after the upload.',
    quote: 'ISO 8601 timestamp, 24 hours after the upload.',
    alsoStated: ['`expiresAt` (string, ISO 8601, 24 hours after upload)'],
    needs: [],
  },
  'RES-IMAGE-ID-INVALID-AFTER-EXPIRY': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Uploaded image',
    statement: 'After expiresAt the image id is permanently invalid: a create that uses it gets 400 INVALID_IMAGE_ID.',
    quote: 'After it the id is permanently invalid.',
    alsoStated: [
      'Uploaded image id lifetime | 24 hours from upload',
      'uploaded by this account within the last 24 hours',
    ],
    needs: ['test-control'],
  },
  'RES-IMAGE-ID-REUSABLE-WITHIN-24H': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Uploaded image',
    statement: 'Within its 24 hours an uploaded image id is accepted by any number of try-ons.',
    quote: 'An id may be used in any number of try-ons within its 24 hours.',
    needs: [],
  },
  'RES-UPLOADS-DELETED-WITHIN-35-DAYS': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Uploaded image',
    statement: 'Uploaded files are deleted automatically within 35 days of the upload.',
    quote: 'deleted automatically within 35 days',
    needs: [],
    notObservable:
      'storage is not visible over HTTP: the id is already invalid after 24 hours and no endpoint lists files',
  },
  'ACCOUNT-OWN-CREDIT-BALANCE': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Account credits',
    statement: "Each account has its own credit balance: one account's try-ons never spend another account's credits.",
    quote: 'Each account holds a credit balance.',
    needs: ['second-account', 'test-control'],
  },
  'ACCOUNT-FREE-CREDITS-ONCE': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Account credits',
    statement: "An account's first API key adds 20 free credits; later keys of the same account add none.",
    quote: 'Its first API key adds 20 free credits, once per account.',
    alsoStated: [
      'The first key adds 20 free credits to the account, once.',
      '20 free credits with the first key, once per account',
    ],
    needs: ['test-control'],
  },
  'ACCOUNT-NOT-PLUGIN-ALLOWANCE': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Account credits',
    statement:
      "API try-ons spend the account's own credits, never the monthly allowance of a connected storefront plugin.",
    quote:
      "API try-ons use the account's own credits, not the monthly allowance of any connected storefront-platform plugin.",
    needs: [],
    notObservable: 'plugin allowances live outside this API; a black-box test sees only the account balance',
  },
  'ACCOUNT-RECORD-FIELDS-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Resources and their fields',
    subsection: 'Account credits',
    statement:
      'The spec leaves open which fields an account record has; openapi.yaml records the reference choice (an integer credits field) and that other fields are allowed.',
    quote: 'Account record fields: not shown.',
    needs: [],
    implementationDefined: true,
    xPoint: 'account-shape',
  },
  'RES-IMAGE-FORMATS-JPEG-PNG': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Image requirements (all images)',
    statement: 'JPEG and PNG images are both accepted as person and garment inputs, uploaded or by URL.',
    quote: 'Formats | JPEG or PNG',
    needs: [],
  },
  'RES-IMAGE-UP-TO-4MB-ACCEPTED': {
    level: 'MUST',
    section: 'Resources and their fields',
    subsection: 'Image requirements (all images)',
    statement: 'An image of up to 4 MB is accepted (the spec does not say whether a MB is 10^6 or 2^20 bytes).',
    quote: 'Maximum size | 4 MB per image',
    alsoStated: ['4 MB per image, JPEG or PNG'],
    needs: [],
    xPoint: 'upload-malformed',
  },
  'RES-PERSON-PHOTO-FULL-LENGTH': {
    level: 'SHOULD',
    section: 'Resources and their fields',
    subsection: 'Image requirements (all images)',
    statement: 'A client sends a person photo that is full-length and faces the camera.',
    quote: 'ideally full-length and facing the camera',
    needs: [],
    notObservable: 'input-quality guidance for the caller; the server does not reject other framings',
  },
  'RES-GARMENT-ONE-PER-IMAGE': {
    level: 'SHOULD',
    section: 'Resources and their fields',
    subsection: 'Image requirements (all images)',
    statement: 'A client sends one garment per garment image.',
    quote: 'one garment per image works best',
    needs: [],
    notObservable: 'input-quality guidance for the caller; the spec gives no server behaviour for several garments',
  },

  // ## States and transitions

  'STATE-CREATE-STARTS-PENDING': {
    level: 'MUST',
    section: 'States and transitions',
    statement:
      'Only an accepted create (valid request, credit available) makes a try-on, and it starts in pending; a refused create makes none.',
    quote: 'create try-on accepted',
    needs: [],
  },
  'STATE-PENDING-TO-SUCCESS': {
    level: 'MUST',
    section: 'States and transitions',
    statement:
      'A pending try-on becomes success once its image is produced and passes the safety checks, and resultUrl is then set.',
    quote: 'generation completes',
    needs: [],
  },
  'STATE-PENDING-TO-FAILED': {
    level: 'MUST',
    section: 'States and transitions',
    statement:
      'A pending try-on becomes failed when generation cannot finish (for example the result fails safety checks); the credit is refunded and message explains.',
    quote: 'generation cannot finish',
    needs: ['scenarios'],
  },
  'STATE-FAILED-READ-IS-200': {
    level: 'MUST',
    section: 'States and transitions',
    statement: 'GET /tryons/{id} of a failed try-on answers HTTP 200 with status failed, not an error status.',
    quote: 'A `failed` try-on is reported with HTTP 200 on read',
    needs: ['scenarios'],
  },
  'STATE-CLIENT-CHECKS-STATUS': {
    level: 'MUST',
    section: 'States and transitions',
    statement: 'A client decides the outcome from the status field, not only from the HTTP status code.',
    quote: 'clients must check `status`, not only the HTTP code',
    needs: [],
    notObservable: CLIENT,
  },
  'STATE-GENERATION-PROBLEMS-NOT-HTTP-ERRORS': {
    level: 'MUST',
    section: 'States and transitions',
    statement:
      'A problem that appears only during generation never becomes an HTTP error: the create answers 200 pending and the try-on later reads as failed with a message.',
    quote: 'Problems that appear only during image generation are not HTTP errors; they surface as `failed`.',
    alsoStated: ['Failures during generation (for example a result failing safety checks) are not HTTP errors'],
    needs: ['scenarios'],
  },
  'STATE-NOT-STARTED-NO-CREDIT-NO-STATE': {
    level: 'MUST',
    section: 'States and transitions',
    statement: 'A start that fails with 502 START_FAILED makes no try-on (no id, nothing to read) and uses no credit.',
    quote: 'A try-on that cannot be started (`START_FAILED`) uses no credit and has no state.',
    alsoStated: ['or cannot be started, is refunded automatically'],
    needs: ['scenarios', 'test-control'],
  },
  'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED': {
    level: 'MAY',
    section: 'States and transitions',
    statement:
      'The spec leaves open whether success or failed can ever change; best practice, followed by the reference server, keeps both final.',
    quote: 'Any transition out of `success` or `failed`: none shown in the described behaviour.',
    needs: [],
    implementationDefined: true,
    xPoint: 'terminal-transitions',
  },
  'STATE-SYNC-KEEPS-RUNNING-AFTER-202': {
    level: 'MUST',
    section: 'States and transitions',
    statement: 'A try-on whose sync request answered 202 keeps running and later reads as success or failed.',
    quote: 'The try-on keeps running after a 202',
    needs: ['scenarios'],
  },
  'STATE-SYNC-KEEPS-RUNNING-AFTER-DISCONNECT': {
    level: 'MUST',
    section: 'States and transitions',
    statement: 'A try-on keeps running when the client drops the sync connection before the answer.',
    quote: 'or a dropped connection',
    needs: [],
  },

  // ## Endpoints

  'CREATE-RETURNS-IMMEDIATELY': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'POST /tryons answers as soon as the try-on is accepted, without waiting for the image, which is made in the background.',
    quote: 'Returns immediately; the image is made in the background.',
    alsoStated: ['Generation is asynchronous.', 'id is returned immediately; generation runs in the background'],
    needs: [],
  },
  'CREATE-IDEMPOTENCY-KEY-FORMAT': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'POST /tryons requires an Idempotency-Key header and accepts any key of 8 to 128 characters made of letters, digits, _ and -.',
    quote: '8-128 characters: letters, digits, `_` or `-`.',
    alsoStated: ['Idempotency-Key | 8-128 characters, letters, digits, `_`, `-`'],
    needs: [],
  },
  'CREATE-NEW-KEY-NEW-TRYON': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'Idempotency goes by key: a new Idempotency-Key starts a new try-on even when the body repeats an earlier one.',
    quote: 'New per try-on',
    needs: [],
  },
  'CREATE-CONTENT-TYPE-JSON': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'POST /tryons takes a JSON body sent with Content-Type: application/json; the spec names no status or code for another content type.',
    quote: 'Content-Type | yes | `application/json`',
    needs: [],
    xPoint: 'wrong-content-type',
  },
  'CREATE-TITLE-OPTIONAL-UP-TO-120': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'title is optional: a create without it, or with a product name of up to 120 characters, is accepted.',
    quote: 'product name, up to 120 characters',
    alsoStated: ['`title` | up to 120 characters'],
    needs: [],
    xPoint: 'title-length',
  },
  'CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'A create needs exactly one person source and exactly one garment source; with both or neither for either image it is refused with a 4xx and starts and charges nothing.',
    quote:
      'Exactly one of `personImageUrl` / `personImageId`, and exactly one of `garmentImageUrl` / `garmentImageId`.',
    alsoStated: ['from two inputs: a person photo and a garment image'],
    needs: [],
    xPoint: 'both-or-neither-source',
  },
  'CREATE-MIX-URL-AND-ID': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'A create may take the person by URL and the garment by uploaded id, or the other way round, and is accepted.',
    quote: 'URL and id forms may be mixed between person and garment.',
    needs: ['fixture-host'],
  },
  'CREATE-URL-HTTPS-ONLY': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'An image URL that is not https:// is refused with 400 INVALID_IMAGE_URL.',
    quote: 'Image URL rules: HTTPS',
    alsoStated: ['HTTPS, default port, HTTP 200, no redirects, within 12 seconds'],
    needs: [],
  },
  'CREATE-URL-DEFAULT-PORT-ONLY': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'An image URL that names a port other than the HTTPS default (443) is refused with 400 INVALID_IMAGE_URL.',
    quote: 'default port only',
    needs: [],
  },
  'CREATE-URL-NO-PRIVATE-ADDRESS': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'An image URL that points at a private, loopback or link-local address is refused with 400 INVALID_IMAGE_URL without being fetched.',
    quote: 'must not point at a private address',
    needs: [],
  },
  'CREATE-URL-MUST-ANSWER-200': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'An image URL that answers anything but HTTP 200 gives 400 IMAGE_DOWNLOAD_FAILED (the spec does not say which code a 200 with a non-image body gets).',
    quote: 'must answer with the image itself and HTTP 200',
    needs: ['fixture-host'],
  },
  'CREATE-URL-REDIRECT-NOT-FOLLOWED': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'A redirect from an image URL is not followed (its target is never fetched) and gives 400 IMAGE_DOWNLOAD_FAILED.',
    quote: 'redirects are not followed and count as failures',
    needs: ['fixture-host'],
  },
  'CREATE-URL-12-SECOND-DEADLINE': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'An image URL that responds within 12 seconds is used; one that has not responded after 12 seconds gives 400 IMAGE_DOWNLOAD_FAILED.',
    quote: 'must respond within 12 seconds',
    needs: ['fixture-host'],
  },
  'CREATE-URL-FILE-JPEG-OR-PNG': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'A file fetched from an image URL that is not JPEG or PNG gives 400 UNSUPPORTED_IMAGE.',
    quote: 'the file must be JPEG or PNG',
    needs: ['fixture-host'],
  },
  'CREATE-URL-FILE-AT-MOST-4MB': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'A file fetched from an image URL that is larger than 4 MB gives 413 IMAGE_TOO_LARGE.',
    quote: 'at most 4 MB',
    needs: ['fixture-host'],
  },
  'CREATE-URL-SIGNED-ACCEPTED': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'A signed image URL (signature in the query string) is accepted while it is still valid.',
    quote: 'Signed URLs are accepted while still valid.',
    needs: ['fixture-host'],
  },
  'CREATE-UPLOADED-IDS-EXEMPT-FROM-URL-RULES': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'An image given by uploaded id is used without any URL fetch, so no URL rule applies to it.',
    quote: 'Uploaded ids are exempt from these URL rules.',
    needs: [],
  },
  'CREATE-IDEMPOTENCY-REPLAY': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'Reusing an Idempotency-Key returns the earlier try-on (same id) instead of starting another; following the design brief, a replay repeats the original status and body.',
    quote: 'Reusing an Idempotency-Key returns the earlier try-on',
    needs: [],
  },
  'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'One Idempotency-Key is never charged twice, however often and on whichever create endpoint it is reused.',
    quote: 'instead of starting or charging again',
    alsoStated: ['one key can never be charged twice', 'without a second charge'],
    needs: ['test-control'],
  },
  'CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'The spec leaves open how long Idempotency-Keys are kept; the design-brief practice is 24 h, after which the key may start a new try-on.',
    quote: 'how long keys are kept',
    needs: ['test-control'],
    implementationDefined: true,
    xPoint: 'idempotency-retention',
  },
  'CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'The spec leaves open what a key reused with a different body gets; the design-brief practice is 422 (IETF Idempotency-Key draft), and never a new try-on or charge.',
    quote: 'what happens when a key is reused with a different body: not shown',
    needs: [],
    implementationDefined: true,
    xPoint: 'idempotency-different-body',
  },
  'CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'The spec leaves open what a key reused while its first request is still creating the try-on gets; the design-brief practice is 409 with Retry-After, and one try-on and one charge in all.',
    quote: 'Reusing an Idempotency-Key',
    needs: [],
    implementationDefined: true,
    xPoint: 'idempotency-in-flight',
  },
  'CREATE-ACCEPTED-IS-200': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'An accepted start answers HTTP 200 with the body {id, status, pollUrl}.',
    quote: 'status 200 as described by the source behaviour of an accepted start',
    needs: [],
  },
  'CREATE-RESPONSE-STATUS-PENDING': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement: 'The status in a create response is always pending.',
    quote: 'always `pending`',
    needs: [],
  },
  'CREATE-ERROR-LIST': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons : create try-on',
    statement:
      'POST /tryons reports errors with the listed pairs only (400 MISSING_IDEMPOTENCY_KEY, INVALID_IMAGE_URL, IMAGE_DOWNLOAD_FAILED, UNSUPPORTED_IMAGE, INVALID_IMAGE_ID; 401; 402; 403; 413; 422 x3; 429; 500; 502; 503), apart from the cases the spec leaves open.',
    quote: 'Errors: 400 MISSING_IDEMPOTENCY_KEY, INVALID_IMAGE_URL, IMAGE_DOWNLOAD_FAILED',
    needs: [],
    xPoint: 'invalid-request',
  },
  'SYNC-SAME-CONTRACT-AS-CREATE': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement:
      'POST /tryons/sync takes the same headers and body, applies the same rules, idempotency and shared start limit, and reports the same errors as POST /tryons.',
    quote:
      'Same headers, body, rules, idempotency behaviour, rate limit (shared 12/minute) and error list as `POST /tryons`.',
    needs: [],
  },
  'SYNC-WAIT-ABOUT-55-SECONDS': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement: 'POST /tryons/sync holds the request open for up to about 55 seconds before it answers 202.',
    quote: 'The server holds the request open up to about 55 seconds.',
    alsoStated: ['holds the request open for up to about 55 seconds', 'about 55 seconds, then 202'],
    needs: ['scenarios'],
  },
  'SYNC-200-ON-SUCCESS': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement: 'A try-on that succeeds within the wait gives 200 with {id, status: "success", resultUrl: string}.',
    quote: 'try-on finished within the wait, as `success`',
    alsoStated: ['returns the finished state in the same call', 'the response is 200 with the final state'],
    needs: [],
  },
  'SYNC-200-ON-FAILED': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement:
      'A try-on that fails within the wait gives 200 with {id, status: "failed", resultUrl: null, message: string}.',
    quote: 'finished within the wait, as `failed`',
    needs: ['scenarios'],
  },
  'SYNC-202-STILL-PENDING': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement:
      'A try-on still working when the wait ends gives 202 with {id, status: "pending", pollUrl}, the same shape as the create response.',
    quote: 'still working when the wait ends',
    alsoStated: ['otherwise 202 with `pending` and a `pollUrl`'],
    needs: ['scenarios'],
  },
  'SYNC-CLIENT-HANDLES-200-AND-202': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement: 'A sync client handles both 200 and 202, and on 202 polls pollUrl every 2-3 seconds.',
    quote: 'Clients must handle both 200 and 202 and, on 202, poll `pollUrl` every 2-3 seconds.',
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'SYNC-CLIENT-TIMEOUT-70-SECONDS': {
    level: 'SHOULD',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement: 'A sync client waits at least 70 seconds before timing out.',
    quote: 'Client timeout should be at least 70 seconds.',
    alsoStated: ['Recommended sync client timeout | at least 70 seconds'],
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'SYNC-SAME-KEY-PICKS-UP-AFTER-DROP': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /tryons/sync : create try-on and wait',
    statement:
      'After a dropped connection, repeating the sync request with the same Idempotency-Key picks up the same try-on (same id) instead of starting another.',
    quote: 'repeating the request with the same Idempotency-Key picks the try-on back up',
    needs: [],
    xPoint: 'sync-pick-up',
  },
  'GET-RESPONSE-200-BODY': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'GET /tryons/{id} : get try-on',
    statement:
      'GET /tryons/{id} answers 200 with id (string), status (pending, success or failed), resultUrl (string or null) and, on failed, message (string).',
    quote:
      'Response 200 body: `id` (string), `status` (`pending` | `success` | `failed`), `resultUrl` (string or null), `message` (string, optional, on `failed`).',
    needs: [],
  },
  'GET-POLL-EVERY-2-3-SECONDS': {
    level: 'SHOULD',
    section: 'Endpoints',
    subsection: 'GET /tryons/{id} : get try-on',
    statement: 'A client polls a pending try-on every 2-3 seconds.',
    quote: 'Polling guidance: every 2-3 seconds',
    alsoStated: ['Polling interval | 2-3 seconds recommended'],
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'GET-POLL-GIVE-UP-AFTER-MINUTES': {
    level: 'SHOULD',
    section: 'Endpoints',
    subsection: 'GET /tryons/{id} : get try-on',
    statement: 'A client stops polling a try-on that is still pending after a few minutes.',
    quote: 'give up after a few minutes',
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'GET-ERROR-LIST': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'GET /tryons/{id} : get try-on',
    statement:
      'GET /tryons/{id} reports errors with these pairs only: 401 INVALID_API_KEY, 404 NOT_FOUND, 429 RATE_LIMITED, 500 INTERNAL_ERROR, 503 UNAVAILABLE.',
    quote:
      'Errors: 401 INVALID_API_KEY; 404 NOT_FOUND (no try-on with that id belongs to this account); 429 RATE_LIMITED; 500 INTERNAL_ERROR; 503 UNAVAILABLE.',
    needs: [],
  },
  'UPLOAD-FREE': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /images : upload image',
    statement: 'Uploading an image uses no credit.',
    quote: 'Free; no credit used.',
    alsoStated: ['Uploading is free.'],
    needs: ['test-control'],
  },
  'UPLOAD-MULTIPART-FORM-DATA': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /images : upload image',
    statement:
      'POST /images takes Content-Type: multipart/form-data with a boundary; the spec names no status or code for another content type.',
    quote: '`Content-Type: multipart/form-data` (required, with boundary)',
    needs: [],
    xPoint: 'wrong-content-type',
  },
  'UPLOAD-FILE-FIELD': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /images : upload image',
    statement:
      'The upload form carries the image in one field named file; the spec names no status or code for a form without it.',
    quote: 'multipart form with one field, `file` (file, required)',
    needs: [],
    xPoint: 'upload-malformed',
  },
  'UPLOAD-RESPONSE-200': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /images : upload image',
    statement: 'A successful upload answers 200 with {id, expiresAt}.',
    quote: 'Response 200 body: `id` (string, begins `img_`)',
    needs: [],
  },
  'UPLOAD-ERROR-LIST': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'POST /images : upload image',
    statement:
      'POST /images reports errors with these pairs only: 400 UNSUPPORTED_IMAGE, 401 INVALID_API_KEY, 413 IMAGE_TOO_LARGE, 429 RATE_LIMITED, 500 INTERNAL_ERROR, 503 UNAVAILABLE, apart from malformed forms, which the spec leaves open.',
    quote:
      'Errors: 400 UNSUPPORTED_IMAGE; 401 INVALID_API_KEY; 413 IMAGE_TOO_LARGE; 429 RATE_LIMITED; 500 INTERNAL_ERROR; 503 UNAVAILABLE.',
    needs: [],
    xPoint: 'upload-malformed',
  },
  'ACCOUNT-GET-READS-CREDITS': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'GET /account : account credits',
    statement: "GET /account exists and reports the calling account's remaining credits.",
    quote: 'Referred to as the way to read the number of credits left on the account.',
    needs: [],
    xPoint: 'account-shape',
  },
  'ACCOUNT-GET-SHAPE-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Endpoints',
    subsection: 'GET /account : account credits',
    statement:
      'The spec leaves open the parameters, headers, body shape, errors and limits of GET /account; openapi.yaml records what is accepted.',
    quote: 'Path parameters, headers, response body shape, errors and limits of this endpoint: not shown.',
    needs: [],
    implementationDefined: true,
    xPoint: 'account-shape',
  },
  'ROUTING-UNKNOWN-PATH-404': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'Unknown paths and methods',
    statement: 'A request to a path with no endpoint gets 404 NOT_FOUND.',
    quote: 'A path with no endpoint gives 404 NOT_FOUND',
    alsoStated: ['or no endpoint at that path'],
    needs: [],
  },
  'ROUTING-WRONG-METHOD-405': {
    level: 'MUST',
    section: 'Endpoints',
    subsection: 'Unknown paths and methods',
    statement:
      'A method an endpoint does not accept (for example GET /tryons or POST /tryons/{id}) gets 405 METHOD_NOT_ALLOWED.',
    quote: 'a method the endpoint does not accept gives 405 METHOD_NOT_ALLOWED',
    alsoStated: ['Example expected methods: POST to `/tryons`, GET to `/tryons/{id}`.'],
    needs: [],
  },

  // ## Authentication

  'AUTH-BEARER-REQUIRED': {
    level: 'MUST',
    section: 'Authentication',
    statement:
      'Every endpoint authenticates with Authorization: Bearer <API_KEY>; a request without that header gets 401 INVALID_API_KEY.',
    quote: 'Every request carries `Authorization: Bearer <API_KEY>`.',
    alsoStated: [
      'All requests need `Authorization: Bearer <API_KEY>`.',
      'Authorization | yes | `Bearer <API_KEY>`',
      'Header: `Authorization` (required).',
    ],
    needs: [],
  },
  'AUTH-KEY-LIVE-FORMAT': {
    level: 'MUST',
    section: 'Authentication',
    statement: 'An issued API key is a fixed prefix, then _live_, then a secret part.',
    quote: 'Keys have a fixed prefix followed by `_live_` and a secret part',
    needs: ['test-control'],
  },
  'AUTH-KEY-NEVER-SHARED': {
    level: 'MUST',
    section: 'Authentication',
    statement: 'The API key value is never shared.',
    quote: 'the value is never to be shared',
    needs: [],
    notObservable: 'about how the holder treats the key; no response can show whether it was shared',
  },
  'AUTH-KEYS-CREATED-OUTSIDE-API': {
    level: 'MUST',
    section: 'Authentication',
    statement: "Keys are created in the provider's web platform (Developer API area); no API operation creates them.",
    quote: 'creation is not an API operation',
    needs: [],
    notObservable: "about the provider's web platform; the absence of an unnamed endpoint cannot be probed",
  },
  'AUTH-ONE-ACTIVE-KEY': {
    level: 'MUST',
    section: 'Authentication',
    statement:
      'An account has one active key at a time: once a new key is issued, the previous one gets 401 INVALID_API_KEY.',
    quote: 'One active key per account.',
    alsoStated: ['API keys | one active per account'],
    needs: ['test-control'],
  },
  'AUTH-REVOKED-KEY-401': {
    level: 'MUST',
    section: 'Authentication',
    statement: 'A revoked key gets 401 INVALID_API_KEY on every endpoint.',
    quote: 'revoked key gives 401 with code `INVALID_API_KEY`',
    needs: ['revoked-key'],
  },
  'AUTH-KEY-SERVER-SIDE-ONLY': {
    level: 'MUST',
    section: 'Authentication',
    statement:
      'An integrator keeps the key on its server (environment variables), never in a browser or mobile bundle or a repository, where it could be copied to spend credits.',
    quote:
      'Keys must be kept on the server only (environment variables, not a frontend bundle or repository). Reason: a key in client code can be copied and used to spend credits.',
    alsoStated: [
      'The API is called from a server only.',
      'The API key must never reach a browser or mobile app bundle.',
    ],
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'AUTH-FOREIGN-IMAGE-ID-INVALID': {
    level: 'MUST',
    section: 'Authentication',
    statement: "A create that uses another account's image id gets 400 INVALID_IMAGE_ID.",
    quote: "another account's image id gives `INVALID_IMAGE_ID`",
    alsoStated: ['Only the account that uploaded an image may use its id.'],
    needs: ['second-account'],
  },
  'AUTH-FOREIGN-TRYON-NOT-FOUND': {
    level: 'MUST',
    section: 'Authentication',
    statement: "Reading another account's try-on gets 404 NOT_FOUND, exactly as for an id that does not exist.",
    quote: "another account's try-on id gives `NOT_FOUND`",
    alsoStated: ['Only the creating account can read it.', 'only try-ons of the calling account are readable'],
    needs: ['second-account'],
  },
  'AUTH-RESULT-URL-PUBLIC': {
    level: 'MUST',
    section: 'Authentication',
    statement: 'A resultUrl serves the image to a request that carries no API key.',
    quote: 'Result image URLs are public and need no key.',
    alsoStated: ['Public, needs no key'],
    needs: [],
  },

  // ## Events

  'EVENTS-WEBHOOKS-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Events',
    statement:
      'The spec leaves open webhooks, callbacks and other pushed events; a target may offer them, and conformance neither needs nor judges them.',
    quote: 'Webhooks, callbacks or other pushed events: not shown.',
    needs: [],
    implementationDefined: true,
  },
  'EVENTS-OUTCOME-BY-POLL-OR-SYNC': {
    level: 'MUST',
    section: 'Events',
    statement:
      "A try-on's outcome is available by polling GET /tryons/{id} or from POST /tryons/sync, with no callback to register.",
    quote: "The only way to learn a try-on's outcome described is polling or the sync endpoint.",
    alsoStated: ['Two ways to get the result'],
    needs: [],
  },

  // ## Errors

  'ERR-ENVELOPE-SHAPE': {
    level: 'MUST',
    section: 'Errors',
    statement: 'Every error response, on every endpoint, is a JSON object {error: string, code: string}.',
    quote: 'Every error response is JSON of the shape `{ "error": string, "code": string }`.',
    alsoStated: ['All error responses share the shape described under Errors.'],
    needs: [],
  },
  'ERR-ERROR-HUMAN-READABLE': {
    level: 'MUST',
    section: 'Errors',
    statement: 'The error field is a non-empty human-readable text.',
    quote: '`error` is human-readable',
    needs: [],
  },
  'ERR-CLIENTS-BRANCH-ON-CODE': {
    level: 'SHOULD',
    section: 'Errors',
    statement: 'A client branches on code, never on the wording of error.',
    quote: '`code` is stable and is what clients branch on',
    needs: [],
    notObservable: CLIENT,
  },
  'ERR-MISSING-IDEMPOTENCY-KEY': {
    level: 'MUST',
    section: 'Errors',
    statement: '400 MISSING_IDEMPOTENCY_KEY: the Idempotency-Key header is missing or is not 8-128 allowed characters.',
    quote: 'Idempotency-Key missing or not 8-128 allowed characters',
    needs: [],
  },
  'ERR-INVALID-IMAGE-URL': {
    level: 'MUST',
    section: 'Errors',
    statement: '400 INVALID_IMAGE_URL: an image URL is not HTTPS, has a custom port, or points at a private address.',
    quote: 'URL not HTTPS, custom port, or private address',
    needs: [],
  },
  'ERR-IMAGE-DOWNLOAD-FAILED': {
    level: 'MUST',
    section: 'Errors',
    statement:
      '400 IMAGE_DOWNLOAD_FAILED: an image URL did not give the image with HTTP 200 within 12 seconds, a redirect counting as a failure.',
    quote: 'URL did not give the image with HTTP 200 within 12 seconds (redirects count as failures)',
    needs: ['fixture-host'],
  },
  'ERR-UNSUPPORTED-IMAGE': {
    level: 'MUST',
    section: 'Errors',
    statement: '400 UNSUPPORTED_IMAGE: an image is not JPEG or PNG.',
    quote: 'UNSUPPORTED_IMAGE | not JPEG or PNG',
    needs: [],
    xPoint: 'upload-malformed',
  },
  'ERR-INVALID-IMAGE-ID': {
    level: 'MUST',
    section: 'Errors',
    statement: '400 INVALID_IMAGE_ID: an image id is unknown, older than 24 hours, or uploaded by another account.',
    quote: 'unknown, older than 24 hours, or uploaded by another account',
    needs: [],
  },
  'ERR-INVALID-API-KEY': {
    level: 'MUST',
    section: 'Errors',
    statement: '401 INVALID_API_KEY: the key is missing, malformed or revoked.',
    quote: 'key missing, malformed or revoked',
    alsoStated: ['A missing, malformed or revoked key gives 401 with code `INVALID_API_KEY`.'],
    needs: [],
  },
  'ERR-INSUFFICIENT-CREDITS': {
    level: 'MUST',
    section: 'Errors',
    statement: '402 INSUFFICIENT_CREDITS: the account has no credits left, and nothing is started.',
    quote: 'INSUFFICIENT_CREDITS | no credits left',
    needs: ['test-control'],
  },
  'ERR-CONSENT-REQUIRED': {
    level: 'MUST',
    section: 'Errors',
    statement: '403 CONSENT_REQUIRED: consent was not the boolean true (missing, false, or another type).',
    quote: '`consent` was not `true`',
    alsoStated: ['consent | boolean | yes | must be `true`', 'The caller confirms this by sending `consent: true`.'],
    needs: [],
  },
  'ERR-NOT-FOUND': {
    level: 'MUST',
    section: 'Errors',
    statement: '404 NOT_FOUND: no try-on with that id on this account, or no endpoint at that path.',
    quote: 'no try-on with that id on this account, or no endpoint at that path',
    needs: [],
  },
  'ERR-METHOD-NOT-ALLOWED': {
    level: 'MUST',
    section: 'Errors',
    statement: '405 METHOD_NOT_ALLOWED: the method is not accepted by the endpoint.',
    quote: 'method not accepted by the endpoint',
    needs: [],
  },
  'ERR-IMAGE-TOO-LARGE': {
    level: 'MUST',
    section: 'Errors',
    statement: '413 IMAGE_TOO_LARGE: an image is larger than 4 MB.',
    quote: 'image larger than 4 MB',
    needs: [],
    xPoint: 'upload-malformed',
  },
  'ERR-PERSON-PHOTO-REJECTED': {
    level: 'MUST',
    section: 'Errors',
    statement: '422 PERSON_PHOTO_REJECTED: the person photo does not clearly show exactly one adult.',
    quote: 'photo does not clearly show exactly one adult',
    alsoStated: ['Person photo content | exactly one adult'],
    needs: ['scenarios'],
  },
  'ERR-IMAGE-REJECTED': {
    level: 'MUST',
    section: 'Errors',
    statement: '422 IMAGE_REJECTED: an image cannot be used for a try-on.',
    quote: 'image cannot be used for a try-on',
    needs: ['scenarios'],
  },
  'ERR-GARMENT-REJECTED': {
    level: 'MUST',
    section: 'Errors',
    statement: '422 GARMENT_REJECTED: the item is not available for virtual try-on.',
    quote: 'item not available for virtual try-on',
    needs: ['scenarios'],
  },
  'ERR-RATE-LIMITED': {
    level: 'MUST',
    section: 'Errors',
    statement: '429 RATE_LIMITED: too many requests for the limit that applies.',
    quote: 'RATE_LIMITED | too many requests',
    alsoStated: ['Over a rate limit the response is 429 `RATE_LIMITED`'],
    needs: [],
  },
  'ERR-INTERNAL-ERROR': {
    level: 'MUST',
    section: 'Errors',
    statement: '500 INTERNAL_ERROR: a server-side fault.',
    quote: 'INTERNAL_ERROR | server-side fault',
    needs: ['scenarios'],
  },
  'ERR-START-FAILED': {
    level: 'MUST',
    section: 'Errors',
    statement: '502 START_FAILED: the try-on could not be started, and no credit was used.',
    quote: 'try-on could not be started; no credit used',
    needs: ['scenarios'],
  },
  'ERR-UNAVAILABLE': {
    level: 'MUST',
    section: 'Errors',
    statement: '503 UNAVAILABLE: the service is temporarily unavailable.',
    quote: 'UNAVAILABLE | temporarily unavailable',
    needs: ['scenarios'],
  },
  'ERR-TRANSIENT-ERRORS-NOT-REPLAYED': {
    level: 'MUST',
    section: 'Errors',
    statement:
      'After a 429, 500, 502 or 503, a retry with the same Idempotency-Key is processed afresh rather than answered with the stored error, or the advised retry could never succeed.',
    quote: 'on 429, 500, 502, 503 and network timeouts',
    needs: [],
    xPoint: 'idempotency-retention',
  },
  'ERR-CLIENT-RETRY-SAME-KEY': {
    level: 'SHOULD',
    section: 'Errors',
    statement: 'A client retries with the same Idempotency-Key on 429, 500, 502, 503 and network timeouts.',
    quote: 'Retry with the same Idempotency-Key',
    alsoStated: ['the same when retrying', 'retry, same Idempotency-Key'],
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'ERR-CLIENT-NO-UNCHANGED-RETRY': {
    level: 'SHOULD',
    section: 'Errors',
    statement: 'A client does not retry a 400, 401, 402, 403, 413 or 422 unchanged.',
    quote: 'Do not retry 400, 401, 402, 403, 413 or 422 unchanged.',
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'ERR-CLIENT-BACKOFF-1-2-4': {
    level: 'SHOULD',
    section: 'Errors',
    statement: 'A client backs off 1 s, then 2 s, then 4 s, and stops after a few attempts.',
    quote: 'Recommended backoff: 1 second, then 2, then 4, and stop after a few attempts',
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'ERR-CLIENT-HONOURS-RETRY-AFTER': {
    level: 'SHOULD',
    section: 'Errors',
    statement: 'A client that gets a Retry-After header waits that long instead of its own backoff.',
    quote: 'when `Retry-After` is present, wait that long instead',
    alsoStated: ['wait `Retry-After` seconds'],
    needs: [],
    notObservable: CLIENT_GRADED,
    clientGrade: true,
  },
  'ERR-SOURCE-COUNT-CODE-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Errors',
    statement:
      'The spec leaves open the status and code for a body with both or neither source of an image; any 4xx with the error envelope is accepted.',
    quote: 'Error codes for a body where both or neither source of an image is given',
    needs: [],
    implementationDefined: true,
    xPoint: 'both-or-neither-source',
  },
  'ERR-TITLE-TOO-LONG-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Errors',
    statement:
      'The spec leaves open the status and code for a title over 120 characters (and whether characters are code points); any 4xx with the error envelope is accepted.',
    quote: 'for a `title` over 120 characters',
    needs: [],
    implementationDefined: true,
    xPoint: 'title-length',
  },
  'ERR-MALFORMED-JSON-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Errors',
    statement:
      'The spec leaves open the status and code for a malformed JSON body; any 4xx with the error envelope is accepted, never a 5xx.',
    quote: 'or for a malformed JSON body: not shown',
    needs: [],
    implementationDefined: true,
    xPoint: 'malformed-json',
  },

  // ## Limits

  'LIMIT-STARTS-12-PER-MINUTE': {
    level: 'MUST',
    section: 'Limits',
    statement:
      'An account may start 12 try-ons per minute across POST /tryons and POST /tryons/sync together; a start over that gets 429 RATE_LIMITED.',
    quote: '12 per minute per account, shared by `POST /tryons` and `POST /tryons/sync`',
    alsoStated: [
      '12 try-on starts per minute per account, shared with `POST /tryons/sync`',
      'rate limit (shared 12/minute)',
    ],
    needs: [],
    xPoint: 'check-order',
  },
  'LIMIT-STARTS-RAISED-ON-REQUEST': {
    level: 'MAY',
    section: 'Limits',
    statement:
      "The provider may raise an account's start limit on request; a raised limit then applies instead of 12 per minute.",
    quote: 'raising it is by request to the provider',
    needs: ['test-control'],
  },
  'LIMIT-POLLS-60-PER-MINUTE': {
    level: 'MUST',
    section: 'Limits',
    statement: 'An account may make 60 GET /tryons/{id} requests per minute; one over that gets 429 RATE_LIMITED.',
    quote: 'Polling (`GET /tryons/{id}`) | 60 per minute per account',
    alsoStated: ['Rate limit: 60 requests per minute per account.'],
    needs: [],
  },
  'LIMIT-UPLOADS-30-PER-MINUTE': {
    level: 'MUST',
    section: 'Limits',
    statement: 'An account may make 30 uploads per minute; one over that gets 429 RATE_LIMITED.',
    quote: 'Uploading images | 30 per minute per account',
    alsoStated: ['Rate limit: 30 uploads per minute per account.'],
    needs: [],
  },
  'LIMIT-RATES-PER-ACCOUNT': {
    level: 'MUST',
    section: 'Limits',
    statement:
      "Rate limits count per account: one account's starts, polls and uploads never use up another account's limits.",
    quote: '12 per minute per account',
    needs: ['second-account'],
  },
  'LIMIT-429-RETRY-AFTER': {
    level: 'MUST',
    section: 'Limits',
    statement:
      'Every 429 RATE_LIMITED carries a Retry-After header in seconds (an integer, per the design brief), after which the request is let through.',
    quote: 'with a `Retry-After` header in seconds',
    needs: [],
  },
  'LIMIT-RETRY-AFTER-WITHIN-WINDOW': {
    level: 'SHOULD',
    section: 'Limits',
    statement:
      'A 429 for going over a per-minute limit names a Retry-After of at most the one-minute window (60 seconds, plus a few of margin): a larger value is not the seconds until the window lets a request through (a value in milliseconds, say).',
    quote: 'Over a rate limit the response is 429 `RATE_LIMITED` with a `Retry-After` header in seconds.',
    alsoStated: ['per minute per account'],
    needs: [],
  },

  // ## Versioning

  'VER-BASE-URL-V1': {
    level: 'MUST',
    section: 'Versioning',
    statement: 'Every endpoint is served under the /api/v1 prefix of the base address.',
    quote: '{base_url} ends in `/api/v1`',
    alsoStated: ['which already includes the version prefix `/api/v1`', 'All paths are relative to {base_url}.'],
    needs: [],
  },
  'VER-ERROR-WORDING-MAY-CHANGE': {
    level: 'MAY',
    section: 'Versioning',
    statement: 'The wording of the error field may change between releases.',
    quote: 'The wording of the `error` field may change',
    alsoStated: ['may change in wording'],
    needs: [],
    notObservable: 'a permission: nothing a target does can break it, and conformance never compares wording',
  },
  'VER-CODES-STABLE': {
    level: 'MUST',
    section: 'Versioning',
    statement: 'The code values are stable: a release never renames or repurposes a code.',
    quote: 'the `code` values are stable',
    alsoStated: ['`code` is stable'],
    needs: [],
    notObservable:
      "stability is across releases and one run sees one release; the ERR-* requirements check today's codes",
  },
  'VER-DEPRECATION-POLICY-IMPL-DEFINED': {
    level: 'MAY',
    section: 'Versioning',
    statement:
      'The spec leaves open the deprecation policy and the rules for adding or changing fields; conformance ignores unknown response fields.',
    quote: 'Deprecation policy and the rules for adding or changing fields: not shown.',
    needs: [],
    implementationDefined: true,
    xPoint: 'versioning-policy',
  },
} as const satisfies Record<string, RequirementSpec>;

export type RequirementId = keyof typeof requirements;

/** A requirement with its ID, as tests, reports and docs hand it around. */
export type Requirement = RequirementSpec & { readonly id: RequirementId };

/** Every requirement ID, in catalogue order (the order of the spec). */
export const requirementIds: readonly RequirementId[] = Object.freeze(Object.keys(requirements) as RequirementId[]);

/**
 * The requirement behind an ID, for any section of the spec. Throws for an unknown ID, which only
 * untyped input (a report read back from disk) can carry.
 */
export function requirement(id: RequirementId): Requirement {
  const spec: RequirementSpec | undefined = (requirements as Record<string, RequirementSpec>)[id];
  if (spec === undefined) throw new Error(`unknown requirement ID: ${String(id)}`);
  return { ...spec, id };
}

/** The whole catalogue in spec order, one entry per rule of the spec. */
export function allRequirements(): Requirement[] {
  return requirementIds.map(requirement);
}

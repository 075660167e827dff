/**
 * GENERATED FILE: do not edit.
 * Generated from openapi.yaml by openapi-typescript. Regenerate with `npm run gen:types`;
 * `npm run check:types` (part of `npm test`) fails when this file is stale.
 */

export interface paths {
    "/tryons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a try-on
         * @description Starts generating an image of the person wearing the garment and returns at once with
         *     `status: pending`; the image is made in the background. Poll `pollUrl`
         *     (`GET /tryons/{id}`) every 2-3 seconds until `status` is `success` or `failed`, or use
         *     `POST /tryons/sync` to wait in one call.
         *
         *     **Image sources.** Give exactly one of `personImageUrl` / `personImageId` and exactly one
         *     of `garmentImageUrl` / `garmentImageId`; URL and id forms may be mixed.
         *
         *     **Image URL rules.** HTTPS; default port only; must not point at a private address; must
         *     answer with the image itself and HTTP 200 (redirects are not followed and count as
         *     failures); must respond within 12 seconds; the file must be JPEG or PNG, at most 4 MB.
         *     Signed URLs are accepted while still valid. Uploaded ids are exempt from these URL rules.
         *
         *     **Consent.** Send `consent: true` to confirm that the shopper is an adult, is the person in
         *     the photo, and agrees to the photo being processed.
         *
         *     **Credits.** One credit per finished try-on. A try-on that fails, or cannot be started
         *     (`502 START_FAILED`), is refunded automatically.
         *
         *     **Idempotency.** `Idempotency-Key` is required: new per try-on, the same when retrying.
         *     Reusing a key returns the earlier try-on instead of starting or charging again.
         *
         *     **Retries.** Retry with the same key on 429, 500, 502, 503 and network timeouts, backing
         *     off 1, 2, then 4 seconds (or `Retry-After` when present). Do not retry 400, 401, 402, 403,
         *     413 or 422 unchanged.
         *
         *     **Rate limit.** 12 starts per minute per account, shared with `POST /tryons/sync`.
         *
         *     **Order of checks** (implementation-defined; see `x-check-order`).
         */
        post: operations["createTryOn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tryons/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a try-on and wait for it
         * @description Same headers, body, rules, idempotency behaviour, rate limit (the 12 starts per minute
         *     shared with `POST /tryons`) and error list as `POST /tryons`. The server holds the request
         *     open for up to about 55 seconds:
         *
         *     - `200` with the final state when the try-on reaches `success` or `failed` within the wait;
         *     - `202` with `status: pending` and a `pollUrl` when it is still working as the wait ends.
         *       Poll `pollUrl` every 2-3 seconds.
         *
         *     Handle both 200 and 202, and use a client timeout of at least 70 seconds. The try-on keeps
         *     running after a 202 or a dropped connection. If the connection drops, repeating the request
         *     with the same Idempotency-Key **picks the try-on back up** without a second charge.
         *
         *     A failed try-on is a `200` with `status: failed`: check `status`, not only the HTTP code.
         */
        post: operations["createTryOnSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tryons/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a try-on
         * @description Reads a try-on of the calling account. Poll every 2-3 seconds until `status` is `success`
         *     or `failed`, and give up after a few minutes.
         *
         *     - `pending`: `resultUrl` is `null`.
         *     - `success`: `resultUrl` is the finished image (JPEG or PNG), public and needing no key,
         *       served from the API host under `/i/`, valid for 24 hours. It carries the AI label in its
         *       metadata; show a visible "AI-generated" caption with it.
         *     - `failed`: `resultUrl` is `null` and `message` is a short explanation that may be shown to
         *       a user; the credit has already been returned. This is an HTTP 200: check `status`.
         *
         *     Terminal states never change. Rate limit: 60 requests per minute per account.
         */
        get: operations["getTryOn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an image
         * @description Uploads a person or garment photo. Free: no credit is used. The returned `img_` id can be
         *     used as `personImageId` or `garmentImageId` in any number of try-ons for 24 hours, by the
         *     uploading account only; after `expiresAt` it is permanently invalid. Uploaded files are
         *     deleted automatically within 35 days.
         *
         *     The file must be JPEG or PNG, at most 4 MB. A person photo shows exactly one adult,
         *     ideally full-length and facing the camera; one garment per image works best.
         *
         *     Rate limit: 30 uploads per minute per account.
         */
        post: operations["uploadImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the account's credits
         * @description Reads the number of credits left on the account of the calling key. One credit is used per
         *     finished try-on; failures and try-ons that could not be started are refunded; uploads are
         *     free. The first API key of an account adds 20 free credits, once.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/i/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a result image
         * @description The finished image named by a try-on's `resultUrl`. Public: it needs no key. It is a JPEG
         *     or PNG and carries a machine-readable label in its metadata saying it was made with AI
         *     (XMP `Iptc4xmpExt:DigitalSourceType` =
         *     `http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia` or
         *     `…/trainedAlgorithmicMedia`). The label is invisible, so show a visible caption such as
         *     "AI-generated". Valid for 24 hours.
         */
        get: operations["getResultImage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Every error response has this shape. `error` is human-readable and may change in wording;
         *     `code` is stable and is what clients branch on. Each operation documents, per status, the
         *     exact set of codes it may give.
         */
        Error: {
            /**
             * @description Human-readable explanation. Wording may change.
             * @example consent must be true.
             */
            error: string;
            code: components["schemas"]["ErrorCode"];
        };
        /**
         * @description Stable error codes. The last five are implementation-defined.
         * @example CONSENT_REQUIRED
         * @enum {string}
         */
        ErrorCode: "MISSING_IDEMPOTENCY_KEY" | "INVALID_IMAGE_URL" | "IMAGE_DOWNLOAD_FAILED" | "UNSUPPORTED_IMAGE" | "INVALID_IMAGE_ID" | "INVALID_API_KEY" | "INSUFFICIENT_CREDITS" | "CONSENT_REQUIRED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "IMAGE_TOO_LARGE" | "PERSON_PHOTO_REJECTED" | "IMAGE_REJECTED" | "GARMENT_REJECTED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "START_FAILED" | "UNAVAILABLE" | "INVALID_REQUEST" | "IDEMPOTENCY_KEY_IN_USE" | "UNSUPPORTED_MEDIA_TYPE" | "IDEMPOTENCY_KEY_REUSED" | "REQUEST_TIMEOUT";
        /**
         * @description Exactly one of `personImageUrl` / `personImageId`, and exactly one of `garmentImageUrl` /
         *     `garmentImageId`. URL and id forms may be mixed between person and garment.
         */
        CreateTryOnRequest: {
            personImageUrl?: components["schemas"]["ImageUrl"];
            personImageId?: components["schemas"]["ImageId"];
            garmentImageUrl?: components["schemas"]["ImageUrl"];
            garmentImageId?: components["schemas"]["ImageId"];
            title?: components["schemas"]["Title"];
            /**
             * @description Must be `true`: the shopper is an adult, is the person in the photo, and agrees to the
             *     photo being processed. Anything else gives `403 CONSENT_REQUIRED`.
             * @example true
             * @constant
             */
            consent: true;
        } & ((unknown | unknown) & (unknown | unknown));
        /**
         * Format: uri
         * @description Public HTTPS URL of a JPEG or PNG, at most 4 MB. Default port only; no private address; it
         *     must answer HTTP 200 with the image itself within 12 seconds (redirects are not followed).
         *     Signed URLs are accepted while still valid.
         * @example https://cdn.shop.example/products/linen-shirt.jpg
         */
        ImageUrl: string;
        /**
         * @description An `img_` id from `POST /images`, uploaded by this account within the last 24 hours.
         * @example img_Qm4Tz8Lw2Rk9Vb6N
         */
        ImageId: string;
        /**
         * @description Product name, up to 120 characters. Sending it improves the result, because it tells the
         *     engine what kind of garment it is placing.
         * @example Linen shirt, short sleeves
         */
        Title: string;
        /**
         * @description The create response, and the sync endpoint's `202`. `pollUrl` is relative to the API host
         *     and equals `/api/v1/tryons/<id>`.
         */
        TryOnStarted: {
            /**
             * @description Identifier of the try-on. Only the creating account can read it.
             * @example ton_7Hd2kQ9xLm3Pv8Rb
             */
            id: string;
            /**
             * @description Always `pending`.
             * @example pending
             * @constant
             */
            status: "pending";
            /**
             * @description `/api/v1/tryons/<id>`, relative to the API host.
             * @example /api/v1/tryons/ton_7Hd2kQ9xLm3Pv8Rb
             */
            pollUrl: string;
        };
        /** @description A try-on as read with `GET /tryons/{id}`, by `status`. */
        TryOn: components["schemas"]["TryOnPending"] | components["schemas"]["TryOnSuccess"] | components["schemas"]["TryOnFailed"];
        /** @description A try-on in a final state, as the sync endpoint's `200` gives it. */
        TryOnFinished: components["schemas"]["TryOnSuccess"] | components["schemas"]["TryOnFailed"];
        /** @description Generation is running in the background. `resultUrl` is `null`. */
        TryOnPending: {
            /** @example ton_7Hd2kQ9xLm3Pv8Rb */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "pending";
            /**
             * @description `null` until the try-on succeeds.
             * @example null
             */
            resultUrl: null;
        };
        /**
         * @description The image is ready. The credit stays used. `resultUrl` is public, needs no key, is served
         *     from the API host under `/i/`, and is valid for 24 hours.
         */
        TryOnSuccess: {
            /** @example ton_7Hd2kQ9xLm3Pv8Rb */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "success";
            resultUrl: components["schemas"]["ResultUrl"];
        };
        /**
         * @description Generation could not finish (for example the result failed safety checks). The credit has
         *     already been returned. Reported with HTTP 200: check `status`.
         */
        TryOnFailed: {
            /** @example ton_7Hd2kQ9xLm3Pv8Rb */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "failed";
            /**
             * @description Always `null` on `failed`.
             * @example null
             */
            resultUrl: null;
            /**
             * @description A short explanation that may be shown to a user.
             * @example The result did not pass safety checks. Your credit has been returned.
             */
            message: string;
        };
        /**
         * Format: uri
         * @description Absolute URL of the finished JPEG or PNG on the API host, under `/i/`. Public; valid for 24 hours.
         * @example https://tryon.example.com/i/r_9fQ2mXc7Lk1wZb4TtVhN0aPe.jpg
         */
        ResultUrl: string;
        ImageUpload: {
            /**
             * @description JPEG or PNG, at most 4 MB (4,194,304 bytes on the reference server).
             * @example (binary JPEG)
             */
            file: string;
        };
        /** @description JPEG or PNG bytes. */
        ImageBinary: string;
        UploadedImage: {
            /**
             * @description Usable as `personImageId` or `garmentImageId` by the uploading account.
             * @example img_Qm4Tz8Lw2Rk9Vb6N
             */
            id: string;
            /**
             * Format: date-time
             * @description 24 hours after the upload. After it the id is permanently invalid.
             * @example 2026-11-23T09:15:02.000Z
             */
            expiresAt: string;
        };
        /** @description Implementation-defined shape (the spec shows none); see `GET /account`. */
        Account: {
            /**
             * @description Credits left on the account.
             * @example 20
             */
            credits: number;
        };
    };
    responses: {
        /** @description The key is missing, malformed or revoked. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "INVALID_API_KEY";
                };
            };
        };
        /**
         * @description The request is invalid: `MISSING_IDEMPOTENCY_KEY`, `INVALID_IMAGE_URL`,
         *     `IMAGE_DOWNLOAD_FAILED`, `UNSUPPORTED_IMAGE` or `INVALID_IMAGE_ID`. Do not retry unchanged.
         *     `INVALID_REQUEST` is implementation-defined (both or neither image source, a `title` over
         *     120 characters, malformed JSON, a field of the wrong type).
         */
        CreateBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "MISSING_IDEMPOTENCY_KEY" | "INVALID_IMAGE_URL" | "IMAGE_DOWNLOAD_FAILED" | "UNSUPPORTED_IMAGE" | "INVALID_IMAGE_ID" | "INVALID_REQUEST";
                };
            };
        };
        /**
         * @description The file is not a JPEG or PNG (`UNSUPPORTED_IMAGE`). `INVALID_REQUEST` is
         *     implementation-defined: a multipart body without a `file` part.
         */
        UploadBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "UNSUPPORTED_IMAGE" | "INVALID_REQUEST";
                };
            };
        };
        /** @description No credits left. Top up, then retry. */
        InsufficientCredits: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "INSUFFICIENT_CREDITS";
                };
            };
        };
        /** @description `consent` was not `true`. Collect the shopper's consent. */
        ConsentRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "CONSENT_REQUIRED";
                };
            };
        };
        /**
         * @description Implementation-defined: the key's first request is still creating its try-on. Retry with
         *     the same key after `Retry-After` seconds.
         */
        IdempotencyKeyInUse: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "IDEMPOTENCY_KEY_IN_USE";
                };
            };
        };
        /** @description The image is larger than 4 MB. Resize it (about 1600 px on the long side). */
        ImageTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "IMAGE_TOO_LARGE";
                };
            };
        };
        /** @description Implementation-defined. The request's headers and body did not all arrive within the server's deadline. The connection is closed after this answer. */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "REQUEST_TIMEOUT";
                };
            };
        };
        /** @description Implementation-defined. The request's `Content-Type` is not the one the operation takes. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "UNSUPPORTED_MEDIA_TYPE";
                };
            };
        };
        /**
         * @description The images cannot be used: `PERSON_PHOTO_REJECTED` (the photo does not clearly show exactly
         *     one adult; ask for another photo), `IMAGE_REJECTED` (the image cannot be used for a try-on;
         *     ask for another photo), `GARMENT_REJECTED` (the item is not available for virtual try-on;
         *     hide the feature for that product). `IDEMPOTENCY_KEY_REUSED` is implementation-defined: the
         *     key was used earlier with a different body. Do not retry unchanged.
         */
        CreateUnprocessable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "PERSON_PHOTO_REJECTED" | "IMAGE_REJECTED" | "GARMENT_REJECTED" | "IDEMPOTENCY_KEY_REUSED";
                };
            };
        };
        /** @description No try-on with that id belongs to this account. */
        TryOnNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "NOT_FOUND";
                };
            };
        };
        /** @description No result image with that name, or it is older than 24 hours. */
        ResultNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "NOT_FOUND";
                };
            };
        };
        /**
         * @description Too many requests in the rolling 60-second window. Wait `Retry-After` seconds, then retry
         *     with the same Idempotency-Key.
         */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "RATE_LIMITED";
                };
            };
        };
        /** @description Server-side fault. Retry with the same Idempotency-Key; one key is never charged twice. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "INTERNAL_ERROR";
                };
            };
        };
        /** @description The try-on could not be started; no credit was used and it has no state. Retry with the same Idempotency-Key. */
        StartFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "START_FAILED";
                };
            };
        };
        /** @description Temporarily unavailable. Retry after a short wait (`Retry-After` when present). */
        Unavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfterOptional"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"] & {
                    /** @enum {unknown} */
                    code?: "UNAVAILABLE";
                };
            };
        };
    };
    parameters: {
        /**
         * @description 8-128 characters: letters, digits, `_` or `-`. New per try-on; the same when retrying.
         *     Reusing a key returns the earlier try-on instead of starting or charging again. Keys are
         *     scoped to the account and shared by `POST /tryons` and `POST /tryons/sync`. A missing or
         *     invalid key gives `400 MISSING_IDEMPOTENCY_KEY`.
         * @example order-8841-tryon-01
         */
        IdempotencyKey: string;
        /**
         * @description The id returned at creation. Only try-ons of the calling account are readable.
         * @example ton_7Hd2kQ9xLm3Pv8Rb
         */
        TryOnId: string;
    };
    requestBodies: {
        /** @description The try-on input. `Content-Type` must be `application/json`. */
        CreateTryOn: {
            content: {
                "application/json": components["schemas"]["CreateTryOnRequest"];
            };
        };
    };
    headers: {
        /**
         * @description Whole seconds to wait before retrying. Waiting that long lets the request through.
         * @example 17
         */
        RetryAfter: string;
        /**
         * @description When present, whole seconds to wait before retrying.
         * @example 5
         */
        RetryAfterOptional: string;
        /**
         * @description Optional (IETF httpapi RateLimit headers draft): the limit that applies, as a structured
         *     field, e.g. `"starts";q=12;w=60`.
         * @example "starts";q=12;w=60
         */
        RateLimitPolicy: string;
        /**
         * @description Optional (IETF httpapi RateLimit headers draft): what is left of the limit and when the
         *     window frees a request, e.g. `"starts";r=3;t=41`.
         * @example "starts";r=3;t=41
         */
        RateLimit: string;
        /**
         * @description `true` when the response is a replay of the key's earlier response.
         * @example true
         */
        IdempotentReplayed: "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createTryOn: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description 8-128 characters: letters, digits, `_` or `-`. New per try-on; the same when retrying.
                 *     Reusing a key returns the earlier try-on instead of starting or charging again. Keys are
                 *     scoped to the account and shared by `POST /tryons` and `POST /tryons/sync`. A missing or
                 *     invalid key gives `400 MISSING_IDEMPOTENCY_KEY`.
                 * @example order-8841-tryon-01
                 */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CreateTryOn"];
        responses: {
            /**
             * @description The try-on was accepted and is `pending`; generation runs in the background. A replay
             *     of an earlier key returns the original response again (with `Idempotent-Replayed: true`).
             */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TryOnStarted"];
                };
            };
            400: components["responses"]["CreateBadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits"];
            403: components["responses"]["ConsentRequired"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["ImageTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["CreateUnprocessable"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["StartFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    createTryOnSync: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description 8-128 characters: letters, digits, `_` or `-`. New per try-on; the same when retrying.
                 *     Reusing a key returns the earlier try-on instead of starting or charging again. Keys are
                 *     scoped to the account and shared by `POST /tryons` and `POST /tryons/sync`. A missing or
                 *     invalid key gives `400 MISSING_IDEMPOTENCY_KEY`.
                 * @example order-8841-tryon-01
                 */
                "Idempotency-Key": components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["CreateTryOn"];
        responses: {
            /** @description The try-on finished within the wait, as `success` or as `failed`. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TryOnFinished"];
                };
            };
            /**
             * @description Still working when the wait ended. The body is identical in shape to the create
             *     response; poll `pollUrl` every 2-3 seconds.
             */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TryOnStarted"];
                };
            };
            400: components["responses"]["CreateBadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits"];
            403: components["responses"]["ConsentRequired"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["IdempotencyKeyInUse"];
            413: components["responses"]["ImageTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["CreateUnprocessable"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["StartFailed"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTryOn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The id returned at creation. Only try-ons of the calling account are readable.
                 * @example ton_7Hd2kQ9xLm3Pv8Rb
                 */
                id: components["parameters"]["TryOnId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The try-on in its current state. A failed try-on is also a 200. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TryOn"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["TryOnNotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    uploadImage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["ImageUpload"];
            };
        };
        responses: {
            /** @description The image was stored. Its id is valid for 24 hours. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadedImage"];
                };
            };
            400: components["responses"]["UploadBadRequest"];
            401: components["responses"]["Unauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["ImageTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /**
             * @description Too many uploads in the rolling 60-second window, or the account's storage quota of
             *     uploads is reached. Wait `Retry-After` seconds, then retry.
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {unknown} */
                        code?: "RATE_LIMITED";
                    };
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's credit balance. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getResultImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Unguessable file name with a `.jpg` or `.png` extension, as found in `resultUrl`.
                 * @example r_9fQ2mXc7Lk1wZb4TtVhN0aPe.jpg
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The result image. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": components["schemas"]["ImageBinary"];
                    "image/png": components["schemas"]["ImageBinary"];
                };
            };
            404: components["responses"]["ResultNotFound"];
        };
    };
}

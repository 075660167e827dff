/** One HTTP request and what came back: the unit of evidence in findings and reports. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text (JSON), or a description of a multipart body. */
  readonly body?: string;
  readonly multipart?: {
    readonly field: string;
    readonly filename: string;
    readonly contentType: string;
    readonly bytes: number;
  };
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text when it is text, cut at a bound. */
  readonly text: string;
  /** The parsed JSON body, or undefined when it is not JSON or not read (`jsonUnread`). */
  readonly json: unknown;
  /** Why a body that may be JSON was not read: over the runner's bounds of size or depth (json-bounds.ts). */
  readonly jsonUnread?: string;
  readonly bytes: Buffer;
  readonly truncated: boolean;
  readonly durationMs: number;
}

export interface Exchange {
  readonly seq: number;
  readonly request: RecordedRequest;
  /** Absent when the request failed at the network level (`error` says how). */
  readonly response?: RecordedResponse;
  readonly error?: string;
  /** Which documented operation this exchange exercised, when the client knows. */
  readonly operationId?: string;
}

/** An exchange that got an HTTP answer. */
export type Answered = Exchange & { readonly response: RecordedResponse };

export function answered(ex: Exchange): ex is Answered {
  return ex.response !== undefined;
}

/**
 * A multipart/form-data body of one file part sent slowly: its head and first bytes at once, the rest
 * once a hold ends. It keeps an upload arriving for a while, as a slow client's does, without a real
 * wait of seconds.
 */
import { randomBytes } from 'node:crypto';

export interface Hold {
  /** The rest of the body is sent once this settles. */
  readonly until: Promise<unknown>;
  /** Called once the head and first bytes have been taken by the connection. */
  readonly started?: () => void;
}

export interface FilePart {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Buffer;
}

export interface HeldBody {
  readonly contentType: string;
  readonly length: number;
  readonly body: AsyncIterable<Uint8Array>;
}

/** Bytes of the file sent with the part's head, before the hold. */
const firstBytes = 64;

/** A name in a part header, quoted as HTML forms do (a quote or line break cannot end it). */
const quoted = (name: string): string => name.replaceAll('"', '%22').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/** The body of a form with `part` alone, its head sent at once and the rest after `hold.until`. */
export function heldMultipart(part: FilePart, hold: Hold): HeldBody {
  const boundary = `----tryon-conformance-${randomBytes(12).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.field)}"; ` +
    `filename="${quoted(part.filename)}"\r\nContent-Type: ${part.contentType}\r\n\r\n`;
  const whole = Buffer.concat([Buffer.from(head), part.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const first = Math.min(Buffer.byteLength(head) + firstBytes, whole.length - 1);
  async function* body(): AsyncGenerator<Uint8Array> {
    yield whole.subarray(0, first);
    // The connection asked for more: what came before it is on its way.
    hold.started?.();
    await hold.until;
    yield whole.subarray(first);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, length: whole.length, body: body() };
}

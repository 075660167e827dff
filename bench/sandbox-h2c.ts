/**
 * The held-sync load's client towards the balancer: HTTP/2 over cleartext with prior knowledge (h2c), which
 * haproxy recognises on its plain HTTP port with no configuration of its own, at most `streamsPerSession`
 * requests per connection (haproxy's default tune.h2.max-concurrent-streams). Through HTTP/1.1 each held
 * request takes two of haproxy's file descriptors (client side and instance side), so one haproxy under a
 * 20,000-descriptor limit holds at most about 9,990; through h2c the client side is a hundred connections.
 * haproxy still speaks HTTP/1.1 to the instances, one connection per held request, as for any client.
 * Loopback only; every answer is bounded in size and time.
 */
import http2, { type ClientHttp2Session } from 'node:http2';

/** haproxy's default limit on concurrent streams per HTTP/2 connection. */
export const streamsPerSession = 100;

/** Largest answer body read: a try-on or an error envelope is far smaller. */
const maxAnswerBytes = 64 * 1024;

export interface H2cAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A pool of h2c sessions to one origin, each carrying at most `streamsPerSession` requests at once. */
export class H2cClient {
  readonly #sessions: { session: ClientHttp2Session; open: number }[] = [];

  constructor(private readonly origin: string) {
    if (!/^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(origin)) throw new Error(`h2c: not loopback: ${origin}`);
  }

  /** Sends one request; resolves with its status and JSON body, rejects on a transport error or after `timeoutMs`. */
  request(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<H2cAnswer> {
    const slot = this.#slot();
    slot.open++;
    return new Promise<H2cAnswer>((resolve, reject) => {
      const stream = slot.session.request({ ':method': method, ':path': path, ...headers });
      const chunks: Buffer[] = [];
      let size = 0;
      let status = 0;
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        slot.open--;
        return true;
      };
      const fail = (error: Error) => {
        if (!settle()) return;
        stream.close(http2.constants.NGHTTP2_CANCEL);
        reject(error);
      };
      const timer = setTimeout(
        () => fail(Object.assign(new Error('h2c: no answer in time'), { code: 'TIMEOUT' })),
        timeoutMs,
      );
      stream.on('response', (h) => void (status = Number(h[':status'])));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxAnswerBytes) return fail(new Error(`h2c: answer over ${maxAnswerBytes} bytes`));
        chunks.push(chunk);
      });
      stream.on('end', () => {
        if (!settle()) return;
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          // Not JSON: the status alone is the answer.
        }
        resolve({ status, body: json });
      });
      stream.on('error', fail);
      stream.on('close', () => fail(new Error('h2c: the stream closed before its answer')));
      stream.end(body);
    });
  }

  /** Closes every session at once (requests still open are cancelled). */
  destroy(): void {
    for (const { session } of this.#sessions.splice(0)) session.destroy();
  }

  /** A session with room for one more stream: the first that has it, else a new one. */
  #slot(): { session: ClientHttp2Session; open: number } {
    const free = this.#sessions.find((s) => s.open < streamsPerSession && !s.session.destroyed && !s.session.closed);
    if (free) return free;
    const session = http2.connect(this.origin);
    // A session's failure reaches each of its streams; the session itself must not crash the bench.
    session.on('error', () => undefined);
    const slot = { session, open: 0 };
    this.#sessions.push(slot);
    return slot;
  }
}

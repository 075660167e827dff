/**
 * Clients for the fairness tests: a slow upload (a multipart POST /images whose body is sent a few bytes
 * at a time over its own raw connection) and a quick client bound to its own loopback address.
 */
import { connect, type Socket } from 'node:net';
import { Agent, type FormData, request } from 'undici';

/** What became of one slow upload: still sending, or the status the server answered it with. */
export interface SlowUpload {
  readonly outcome: () => 'sending' | 'closed' | number;
  readonly code: () => string | undefined;
  stop(): void;
}

export interface SlowUploadOptions {
  /** The client's own address (127.0.0.2 is another client on loopback). */
  readonly localAddress?: string;
  /** Extra request headers, e.g. the X-Forwarded-For a balancer adds. */
  readonly headers?: Record<string, string>;
  /** Bytes per write and the pause between writes. */
  readonly chunk?: number;
  readonly everyMs?: number;
}

/** Starts one upload of `image` that sends its body `chunk` bytes every `everyMs`, until answered or stopped. */
export function slowUpload(base: string, key: string, image: Buffer, options: SlowUploadOptions = {}): SlowUpload {
  const { hostname, port } = new URL(base);
  const boundary = 'fairness-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const extra = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head =
    `POST /api/v1/images HTTP/1.1\r\nHost: tryon.test\r\nAuthorization: Bearer ${key}\r\n${extra}` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
  const socket: Socket = connect({
    host: hostname,
    port: Number(port),
    ...(options.localAddress && { localAddress: options.localAddress }),
  });
  let received = '';
  let closed = false;
  let sent = 0;
  const chunk = options.chunk ?? 8;
  const timer = setInterval(() => {
    if (closed || sent >= body.length || !socket.writable) return;
    socket.write(body.subarray(sent, sent + chunk));
    sent += chunk;
  }, options.everyMs ?? 200);
  socket.on('connect', () => socket.write(head));
  socket.on('data', (data: Buffer) => {
    received += data.toString('latin1');
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
    clearInterval(timer);
  });
  const status = () => {
    const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
    return match ? Number(match[1]) : undefined;
  };
  return {
    outcome: () => status() ?? (closed ? 'closed' : 'sending'),
    code: () => /"code":"([A-Z_]+)"/.exec(received)?.[1],
    stop() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** A quick client on its own loopback address: GET requests with a key, answered status by status. */
export function quickClient(base: string, localAddress: string, headers: Record<string, string> = {}) {
  // undici's own connector does not bind a local address: connect the sockets here.
  const agent = new Agent({
    connections: 8,
    connect: (options, callback) => {
      const socket = connect({ host: options.hostname, port: Number(options.port), localAddress });
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    },
  });
  return {
    async get(path: string, key: string): Promise<number> {
      const res = await request(`${base}${path}`, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${key}`, ...headers },
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await res.body.dump();
      return res.statusCode;
    },
    async post(path: string, key: string, body: FormData): Promise<number> {
      const res = await request(`${base}${path}`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${key}`, ...headers },
        body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await res.body.dump();
      return res.statusCode;
    },
    close: () => agent.close(),
  };
}

/** Counts the values of a list: `{ '200': 100 }`. */
export function tally(values: readonly (string | number)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

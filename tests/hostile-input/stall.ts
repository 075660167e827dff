/**
 * Stalled and trickling bodies (issue 13: bodies that never end): `count` connections send the
 * headers of an authenticated create request and part of its body, then go silent or trickle one
 * byte at a time. Each must be answered (408 REQUEST_TIMEOUT in the envelope) or closed within the
 * server's request deadline plus its check interval, and the server's open files must come back
 * to where they were.
 */
import { connect } from 'node:net';
import { readAnswer, isEnvelope } from './raw-http.ts';
import type { ServerProcess } from './server-process.ts';

export interface StallResult {
  readonly connections: number;
  /** Answers by status (or `closed` when closed without one). */
  readonly answers: Readonly<Record<string, number>>;
  readonly envelopes: number;
  /** The codes of the envelopes, with how many of each. */
  readonly codes: Readonly<Record<string, number>>;
  /** The longest time from a connection's first bytes to its answer or close. */
  readonly slowestMs: number;
  readonly openFilesBefore: number;
  readonly openFilesPeak: number;
  readonly openFilesAfter: number;
}

/** `mode`: silent after part of the body, or one byte every `trickleMs`. */
export async function runStall(
  server: ServerProcess,
  apiKey: string,
  count: number,
  mode: 'silent' | 'trickle',
  trickleMs = 500,
): Promise<StallResult> {
  const { hostname, port } = new URL(server.base);
  const openFilesBefore = server.usage().openFiles;
  let openFilesPeak = openFilesBefore;
  const watch = setInterval(() => (openFilesPeak = Math.max(openFilesPeak, server.usage().openFiles)), 100);
  const head = `POST /api/v1/tryons HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${apiKey}\r\nIdempotency-Key: stalled-request-1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"consent":`;
  const results = await Promise.all(
    Array.from({ length: count }, async () => {
      const socket = connect({ host: hostname, port: Number(port) });
      let sentAt = performance.now();
      const answer = readAnswer(socket, { timeoutMs: 120_000 });
      socket.once('connect', () => {
        sentAt = performance.now();
        socket.write(head);
      });
      const timer = mode === 'trickle' ? setInterval(() => socket.writable && socket.write(' '), trickleMs) : undefined;
      const got = await answer;
      if (timer) clearInterval(timer);
      return { got, ms: performance.now() - sentAt };
    }),
  );
  // Closed sockets leave the server's table once it has seen the close.
  await new Promise((r) => setTimeout(r, 3_000));
  clearInterval(watch);
  const answers: Record<string, number> = {};
  for (const { got } of results) {
    const key = got.status === undefined ? 'closed' : String(got.status);
    answers[key] = (answers[key] ?? 0) + 1;
  }
  return {
    connections: count,
    answers,
    envelopes: results.filter(({ got }) => got.status !== undefined && isEnvelope(got.body)).length,
    codes: results.reduce<Record<string, number>>((codes, { got }) => {
      const code = isEnvelope(got.body)?.code ?? 'none';
      codes[code] = (codes[code] ?? 0) + 1;
      return codes;
    }, {}),
    slowestMs: Math.max(...results.map((r) => r.ms)),
    openFilesBefore,
    openFilesPeak,
    openFilesAfter: server.usage().openFiles,
  };
}

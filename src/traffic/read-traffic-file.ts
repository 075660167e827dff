/**
 * Reads a recording from disk for `judge FILE`, bounded: NDJSON streamed line by line (a line over
 * `maxLineChars` is skipped and counted, never held), a HAR file read whole only up to `maxHarChars`
 * (over it: a usage error), nesting bounded by recording.ts. A record from another tool may carry
 * its Authorization header in clear: it becomes the account digest, and the key is redacted from
 * everything kept of the exchange.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { redact, redactedMark, secretsOf } from '../grade/redact.ts';
import { readJsonBody } from '../shared/json-bounds.ts';
import { redactHandedOutKey } from './handed-out-key.ts';
import {
  fromNdjsonLine,
  maxHarChars,
  maxLineChars,
  readRecording,
  recordingFormatOf,
  type RecordingFormat,
  type RecordingProblem,
} from './recording.ts';
import { accountOf, type TrafficExchange } from './traffic-exchange.ts';

/** A recording that cannot be judged at all (too large, not the format): one line, exit 2. */
export class RecordingError extends Error {
  override readonly name = 'RecordingError';
}

/** The format of a file: as given, else from its first characters. */
export async function formatOfFile(file: string, given?: RecordingFormat): Promise<RecordingFormat> {
  if (given !== undefined) return given;
  const stream = createReadStream(file, { start: 0, end: 199, encoding: 'utf8' });
  let head = '';
  for await (const chunk of stream) head += chunk as string;
  return recordingFormatOf(head);
}

/**
 * Every exchange of the file, in order, to `each`; the records that could not be read are returned.
 * A HAR's entries are handed over in the order their answers ended, as the proxy would have seen them.
 */
export async function readTrafficFile(
  file: string,
  format: RecordingFormat,
  each: (te: TrafficExchange) => void,
): Promise<RecordingProblem[]> {
  if (format === 'har') {
    const size = (await stat(file)).size;
    if (size > maxHarChars) throw new RecordingError(`a HAR file of ${size} bytes, over the ${maxHarChars} read whole`);
    const { exchanges, problems } = readRecording(await readFile(file, 'utf8'));
    const whole = problems.find((p) => p.at === 0);
    if (whole !== undefined) throw new RecordingError(`not a HAR 1.2 file: ${whole.problem}`);
    for (const te of [...exchanges].sort((a, b) => a.endedAt - b.endedAt)) each(redacted(te));
    return problems;
  }
  return readNdjsonFile(file, (line) => each(redacted(fromNdjsonLine(line))));
}

async function readNdjsonFile(file: string, each: (line: string) => void): Promise<RecordingProblem[]> {
  const problems: RecordingProblem[] = [];
  let line = '';
  let number = 1;
  let skipping = false;
  const end = (): void => {
    if (skipping) problems.push({ at: number, problem: `a line over ${maxLineChars} characters, skipped` });
    else if (line.trim() !== '') {
      try {
        each(line);
      } catch (error) {
        problems.push({ at: number, problem: (error as Error).message });
      }
    }
    line = '';
    skipping = false;
    number += 1;
  };
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 16 })) {
    const parts = (chunk as string).split('\n');
    parts.forEach((part, i) => {
      if (!skipping) {
        line += part;
        if (line.length > maxLineChars) {
          skipping = true;
          line = '';
        }
      }
      if (i < parts.length - 1) end();
    });
  }
  if (line !== '' || skipping) end();
  return problems;
}

/** An exchange whose answer hands out a key in clear (test control): the key kept only as its digest. */
function withoutHandedOutKey(te: TrafficExchange): TrafficExchange {
  const response = te.exchange.response;
  if (response === undefined || response.json === undefined) return te;
  const text = redactHandedOutKey(response.text, response.json);
  if (text === response.text) return te;
  const bytes = Buffer.from(redactHandedOutKey(response.bytes.toString('utf8'), response.json));
  const reading = readJsonBody(Buffer.from(text));
  const json = reading !== undefined && 'json' in reading ? reading.json : undefined;
  return { ...te, exchange: { ...te.exchange, response: { ...response, text, bytes, json } } };
}

/** An exchange whose Authorization header is still in clear: the account digest kept, the key redacted. */
function redacted(recorded: TrafficExchange): TrafficExchange {
  const te = withoutHandedOutKey(recorded);
  const authorization = te.exchange.request.headers.authorization;
  if (authorization === undefined || authorization.includes(redactedMark)) return te;
  const secrets = secretsOf(authorization);
  const clean = (text: string): string => redact(text, secrets);
  const { request, response } = te.exchange;
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k, k === 'authorization' ? `Bearer ${redactedMark}` : clean(v)]),
  );
  return {
    ...te,
    account: te.account === 'none' ? accountOf(authorization) : te.account,
    exchange: {
      ...te.exchange,
      request: {
        ...request,
        url: clean(request.url),
        headers,
        ...(request.body !== undefined && { body: clean(request.body) }),
      },
      ...(response !== undefined && { response: { ...response, text: clean(response.text) } }),
    },
  };
}

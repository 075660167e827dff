/**
 * Result URLs and the images fetched through them, as the traffic shows them. A resultUrl is
 * "served from {host} under a path beginning `/i/`" (the path is a per-exchange check; its host is
 * judged here against the host each request was sent to, or a host the user names, a proxy's
 * upstream); "Public, needs no key, … valid for 24 hours"; "URL of the finished image (JPEG or PNG)";
 * "Every result image carries a machine-readable label in its metadata saying it was made with AI."
 * The image rules read only a whole answer (never one the capture cut); the lifetime rules only a
 * URL seen on a success within the last 24 hours of an unmoved clock, or, for an image served past
 * them (x-conformance: "After 24 hours (test clock) any answer but 200 is accepted"), one whose
 * sighting lies surely more than 24 hours back on the server's clock (server-clock.ts).
 */
import { finding } from '../../checks/finding.ts';
import { pathOf } from '../../contract/operation-of.ts';
import { readAiLabels } from '../../fixtures/ai-label-fields.ts';
import { isJpeg } from '../../fixtures/jpeg-segments.ts';
import { isPng } from '../../fixtures/png-chunks.ts';
import { CappedMap } from '../capped-map.ts';
import { slim, type TrafficView } from '../traffic-view.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'result images';

/** "valid for 24 hours" */
export const resultLifetimeMs = 24 * 3600 * 1000;

interface Seen {
  readonly te: TrafficExchange;
  readonly epoch: number;
  /** The server's time of the sighting, at the most. */
  readonly serverAt: number;
}

/** How far past its 24 hours an image must surely be before a 200 for it is a breach. */
const expirySlackMs = 60_000;

/** The hosts of the latest URLs read: a try-on's resultUrl and the request's URL come again and again. */
const lastHosts = new Map<string, string | undefined>();

function hostOf(url: string): string | undefined {
  if (lastHosts.has(url)) return lastHosts.get(url);
  let host: string | undefined;
  try {
    host = new URL(url).host;
  } catch {
    host = undefined;
  }
  if (lastHosts.size >= 16) lastHosts.clear();
  if (url.length <= 2048) lastHosts.set(url, host);
  return host;
}

export function resultImages(setup: RuleSetup): PassiveRule {
  const { ledger } = setup;
  const urls = new CappedMap<string, Seen>(setup.caps.accounts * 10);
  let epoch = 0;
  ledger.declare(family, 'AUTH-RESULT-URL-PUBLIC', 'a resultUrl fetched without a key');
  ledger.declare(family, 'RES-RESULT-URL-VALID-24H', 'a resultUrl fetched within 24 hours of the success');
  ledger.declare(family, 'RES-RESULT-URL-ON-SUCCESS', 'a result image fetched whole');
  ledger.declare(family, 'SVC-RESULT-AI-LABEL', 'a result image fetched whole');
  const fail = (id: Parameters<typeof finding>[1], title: string, got: string, want: string, tes: TrafficExchange[]) =>
    ledger.found(family, finding('result_image', id, title, got, want, tes.at(-1)?.exchange.seq ?? 0), tes);
  return {
    family,
    notKept: () => urls.evicted,
    control(call) {
      if (call.kind === 'clock') epoch += 1;
    },
    observe(v) {
      const url = v.tryOn?.status === 'success' ? v.tryOn.resultUrl : undefined;
      if (typeof url === 'string' && (v.op === 'getTryOn' || v.op === 'createTryOnSync') && v.status === 200) {
        const host = hostOf(url);
        if (host === undefined) return; // not a URL: the per-exchange body check fails it
        const ours = [hostOf(v.exchange.request.url), v.exchange.request.headers.host, ...setup.hosts];
        if (ours.includes(host)) ledger.judged(family, 'RES-RESULT-URL-HOST-AND-PATH', v.te);
        else
          fail(
            'RES-RESULT-URL-HOST-AND-PATH',
            'resultUrl is not on the API host',
            url.slice(0, 300),
            `"served from {host}": ${ours.filter((h) => h !== undefined).join(' or ')}`,
            [v.te],
          );
        const path = pathOf(url);
        const at = setup.clock.place(v.te.startedAt, v.te.endedAt);
        if (urls.get(path) === undefined) urls.set(path, { te: slim(v.te), epoch, serverAt: at.to + at.half });
        return;
      }
      if (v.op !== 'resultImage') return;
      const seen = urls.get(v.path);
      const keyless = v.exchange.request.headers.authorization === undefined;
      const inTime = seen !== undefined && seen.epoch === epoch && v.te.startedAt - seen.te.endedAt < resultLifetimeMs;
      const evidence = seen === undefined ? [v.te] : [seen.te, v.te];
      if (inTime && keyless && (v.status === 401 || v.status === 403))
        fail(
          'AUTH-RESULT-URL-PUBLIC',
          'A resultUrl refused a request without a key',
          String(v.status),
          '"Public, needs no key"',
          evidence,
        );
      else if (inTime && (v.status === 404 || v.status === 410))
        fail(
          'RES-RESULT-URL-VALID-24H',
          'A resultUrl gone within its 24 hours',
          String(v.status),
          '"valid for 24 hours"',
          evidence,
        );
      if (v.status !== 200) return;
      const now = setup.clock.place(v.te.startedAt, v.te.endedAt);
      if (seen !== undefined && now.from - now.half > seen.serverAt + resultLifetimeMs + expirySlackMs)
        fail(
          'RES-RESULT-URL-VALID-24H',
          'A resultUrl still served past its 24 hours',
          '200',
          '"valid for 24 hours": after them any answer but 200',
          evidence,
        );
      if (inTime && keyless) ledger.judged(family, 'AUTH-RESULT-URL-PUBLIC', v.te);
      if (inTime) ledger.judged(family, 'RES-RESULT-URL-VALID-24H', v.te);
      if (v.whole && v.exchange.request.method.toUpperCase() === 'GET') judgeImage(setup, v, fail);
    },
  };
}

type Fail = (
  id: 'RES-RESULT-URL-ON-SUCCESS' | 'SVC-RESULT-AI-LABEL',
  t: string,
  g: string,
  w: string,
  e: TrafficExchange[],
) => void;

/** The bytes of a whole result image: JPEG or PNG, named right by a Content-Type that names one, labelled. */
function judgeImage(setup: RuleSetup, v: TrafficView, fail: Fail): void {
  const bytes = v.exchange.response.bytes;
  const format = isJpeg(bytes) ? 'image/jpeg' : isPng(bytes) ? 'image/png' : undefined;
  const type = (v.exchange.response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (format === undefined)
    fail(
      'RES-RESULT-URL-ON-SUCCESS',
      'A result image that is neither JPEG nor PNG',
      `${bytes.length} bytes, ${type || 'no type'}`,
      '"URL of the finished image (JPEG or PNG)"',
      [v.te],
    );
  else if ((type === 'image/jpeg' || type === 'image/png') && type !== format)
    fail(
      'RES-RESULT-URL-ON-SUCCESS',
      "A result image under the other format's Content-Type",
      `${format} bytes as ${type}`,
      '"JPEG or PNG", named right',
      [v.te],
    );
  else setup.ledger.judged(family, 'RES-RESULT-URL-ON-SUCCESS', v.te);
  if (format === undefined) return;
  const { labels, refused } = readAiLabels(bytes);
  if (labels.length > 0) setup.ledger.judged(family, 'SVC-RESULT-AI-LABEL', v.te);
  else
    fail(
      'SVC-RESULT-AI-LABEL',
      'A result image without a machine-readable AI label',
      refused.length === 0 ? 'no metadata field names itself an AI label' : refused.join('; ').slice(0, 300),
      '"Every result image carries a machine-readable label in its metadata saying it was made with AI."',
      [v.te],
    );
}

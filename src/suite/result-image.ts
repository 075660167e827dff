/**
 * The rules every result image must keep, checked on whatever the target produced (spec: Try-on
 * `resultUrl`; What the service does, the AI label; Authentication 7): served without a key, JPEG or
 * PNG, a Content-Type naming one of the two names the right one, labelled as made with AI. Each
 * check records the format it met (`exercised`, dimension "result format"), so a target whose PNG
 * results were never seen shows as partially exercised.
 */
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { readAiLabels } from '../fixtures/ai-label-fields.ts';
import { isJpeg } from '../fixtures/jpeg-segments.ts';
import { isPng } from '../fixtures/png-chunks.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { exercised } from './alternatives.ts';
import type { ConformanceContext } from './conformance.ts';

export type ResultFormat = 'image/jpeg' | 'image/png' | 'neither JPEG nor PNG';

/**
 * GET of a result URL with no Authorization header (it is public), only on the target's own origin.
 * A resultUrl on another host breaks RES-RESULT-URL-HOST-AND-PATH ("served from {host}") and is
 * never fetched: the test stops there, with the URL as evidence. One on the API host under another
 * scheme or port than the target's is not fetched either; the test is then inconclusive.
 */
export async function fetchResult(t: ConformanceContext, url: string): Promise<Exchange> {
  const target = new URL(t.target.origin);
  const place = placeOf(url);
  // resultUrl: "URL of the finished image … served from {host}" ({host}: the host part of {base_url}).
  const what = `resultUrl ${url} against the API host (not fetched)`;
  t.must('RES-RESULT-URL-HOST-AND-PATH', () => expect(place?.host, what).toBe(target.host));
  if (place?.origin !== target.origin) {
    t.inconclusive(
      `resultUrl ${url} is not on the target's origin ${target.origin}; the runner fetches nothing outside it`,
    );
  }
  return t.target.send({ method: 'GET', path: url, operationId: 'getResultImage' });
}

/** The host and origin of a URL, or undefined when it is not an absolute URL. */
function placeOf(url: string): { readonly host: string; readonly origin: string } | undefined {
  try {
    const parsed = new URL(url);
    return { host: parsed.host, origin: parsed.origin };
  } catch {
    return undefined;
  }
}

export function formatOf(bytes: Buffer): ResultFormat {
  return isJpeg(bytes) ? 'image/jpeg' : isPng(bytes) ? 'image/png' : 'neither JPEG nor PNG';
}

/** The Content-Type's media type, lower case, or '' when there is none. */
export function mediaTypeOf(ex: Exchange): string {
  return (ex.response?.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export interface ResultChecks {
  /** Check the bytes and the Content-Type (RES-RESULT-URL-ON-SUCCESS). */
  readonly format?: boolean;
  /** Check the AI label (SVC-RESULT-AI-LABEL). */
  readonly label?: boolean;
}

/**
 * Judges one 200 answer of a result URL fetched without a key: its bytes and Content-Type, and its
 * AI label, as `checks` asks. Returns the format of the bytes. The caller judges the status.
 */
export function checkResultImage(
  t: ConformanceContext,
  resultUrl: string,
  image: Exchange,
  checks: ResultChecks = { format: true, label: true },
): ResultFormat {
  const bytes = image.response?.bytes ?? Buffer.alloc(0);
  const format = formatOf(bytes);
  const judged: RequirementId[] = [];
  if (checks.format !== false) {
    // resultUrl: "On `success`: URL of the finished image (JPEG or PNG)."
    t.must('RES-RESULT-URL-ON-SUCCESS', () =>
      expect(['image/jpeg', 'image/png'], `the bytes of ${resultUrl}`).toContain(format),
    );
    // The spec names no header; a Content-Type that names one of the two formats must name the right one.
    const type = mediaTypeOf(image);
    if (type === 'image/jpeg' || type === 'image/png')
      t.must('RES-RESULT-URL-ON-SUCCESS', () =>
        expect(format, `the bytes of ${resultUrl} against its Content-Type ${type}`).toBe(type),
      );
    t.choose('result-content-type', type === '' ? '(none)' : type, 'RES-RESULT-URL-ON-SUCCESS');
    judged.push('RES-RESULT-URL-ON-SUCCESS');
  }
  if (checks.label !== false) {
    // "Every result image carries a machine-readable label in its metadata saying it was made with AI."
    // No format is named.
    // Read by structure (XMP as XML with namespaces, text chunks by keyword, C2PA): a malformed packet, or the
    // IPTC term outside DigitalSourceType, is no machine-readable label; words in a well-formed field are one.
    const { labels: fields, refused } = readAiLabels(bytes);
    const why = refused.length === 0 ? 'no metadata field names itself an AI label' : refused.join('; ');
    t.must('SVC-RESULT-AI-LABEL', () =>
      expect(
        fields.length,
        `machine-readable AI labels in the metadata of ${resultUrl} (${format}); none because: ${why}`,
      ).toBeGreaterThan(0),
    );
    t.choose('ai-label-format', fields.map((f) => `${f.field} (${f.evidence})`).join(', '), 'SVC-RESULT-AI-LABEL');
    judged.push('SVC-RESULT-AI-LABEL');
  }
  if (format !== 'neither JPEG nor PNG')
    exercised(t, 'result format', format === 'image/jpeg' ? 'JPEG' : 'PNG', judged);
  return format;
}

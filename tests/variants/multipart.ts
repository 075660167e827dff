/** The `file` part of a multipart/form-data upload, read just well enough for a variant to look at it. */
import type { ProxiedRequest } from '../mutants/mutating-proxy.ts';

export function filePart(req: ProxiedRequest): Buffer | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = req.body.indexOf(delimiter);
  while (at !== -1) {
    const headersEnd = req.body.indexOf('\r\n\r\n', at);
    const next = req.body.indexOf(delimiter, at + delimiter.length);
    if (headersEnd === -1 || next === -1) return undefined;
    const headers = req.body.subarray(at, headersEnd).toString('latin1');
    // The part's content ends with CRLF before the next delimiter.
    if (/name="file"/i.test(headers)) return req.body.subarray(headersEnd + 4, next - 2);
    at = next;
  }
  return undefined;
}

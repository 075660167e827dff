import { describe, expect, it } from 'vitest';
import { encodeRgbPng } from '../../fixtures/png-encode.ts';
import { encodePngChunk, rebuildPng } from '../../fixtures/png-chunks.ts';
import { iptcExtNamespace } from '../../fixtures/ai-label-reader.ts';
import { fake, origin, poll } from '../fake-traffic.ts';
import { clockMoved } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const trained = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
const xmp = [
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
  `<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="${iptcExtNamespace}" Iptc4xmpExt:DigitalSourceType="${trained}"/>`,
  '</rdf:RDF></x:xmpmeta>',
].join('');
const plain = encodeRgbPng(2, 2, Buffer.alloc(12, 200));
const labelled = rebuildPng(plain, [encodePngChunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${xmp}`, 'utf8'))]);

const fetched = (bytes: Buffer, at: number, o: { partial?: boolean; status?: number; key?: boolean } = {}) =>
  fake({
    path: '/i/ton_1.png',
    status: o.status ?? 200,
    bytes,
    responseHeaders: { 'content-type': 'image/png' },
    at,
    ...(o.key !== true && { account: 'none' }),
    ...(o.partial === true && { partial: true }),
  });

describe('result images', () => {
  it('a labelled PNG fetched whole without a key passes the label, format, public and lifetime rules', () => {
    const t = judgeTrace([poll('ton_1', 'success', 0), fetched(labelled, 1)]);
    for (const id of [
      'SVC-RESULT-AI-LABEL',
      'RES-RESULT-URL-ON-SUCCESS',
      'AUTH-RESULT-URL-PUBLIC',
      'RES-RESULT-URL-VALID-24H',
    ])
      expect(t.verdict(id), id).toBe('pass');
  });

  it('an image without a label fails SVC-RESULT-AI-LABEL', () => {
    expect(judgeTrace([fetched(plain, 1)]).verdict('SVC-RESULT-AI-LABEL')).toBe('fail');
  });

  it('an image the capture cut is not judged', () => {
    expect(judgeTrace([fetched(plain, 1, { partial: true })]).verdict('SVC-RESULT-AI-LABEL')).toBe('not-observable');
  });

  it('bytes that are neither JPEG nor PNG fail RES-RESULT-URL-ON-SUCCESS', () => {
    expect(judgeTrace([fetched(Buffer.from('GIF89a....'), 1)]).verdict('RES-RESULT-URL-ON-SUCCESS')).toBe('fail');
  });

  it('a resultUrl that asks for a key, or is gone within its day, fails', () => {
    const refused = judgeTrace([poll('ton_1', 'success', 0), fetched(plain, 1, { status: 401 })]);
    expect(refused.verdict('AUTH-RESULT-URL-PUBLIC')).toBe('fail');
    const gone = judgeTrace([poll('ton_1', 'success', 0), fetched(plain, 1, { status: 404 })]);
    expect(gone.verdict('RES-RESULT-URL-VALID-24H')).toBe('fail');
  });

  it('a resultUrl on another host fails RES-RESULT-URL-HOST-AND-PATH unless the host is named', () => {
    const elsewhere = fake({
      path: '/api/v1/tryons/ton_1',
      status: 200,
      json: { id: 'ton_1', status: 'success', resultUrl: 'https://cdn.example.com/i/ton_1.png' },
      at: 0,
    });
    expect(judgeTrace([elsewhere]).verdict('RES-RESULT-URL-HOST-AND-PATH')).toBe('fail');
    expect(judgeTrace([elsewhere], { hosts: ['cdn.example.com'] }).verdict('RES-RESULT-URL-HOST-AND-PATH')).toBe(
      'pass',
    );
    expect(judgeTrace([poll('ton_1', 'success', 0)]).verdict('RES-RESULT-URL-HOST-AND-PATH')).toBe('pass');
    expect(origin).toMatch(/^http:/);
  });

  it('an image still served surely past its 24 hours on the moved clock fails RES-RESULT-URL-VALID-24H', () => {
    const success = poll('ton_1', 'success', 0);
    // The fake traffic starts at 1,764,000,000,000 ms; the clock moved two days on.
    const moved = clockMoved(new Date(1_764_000_000_000 + 2 * 86_400_000).toISOString(), 1);
    expect(judgeTrace([success, moved, fetched(labelled, 2)]).verdict('RES-RESULT-URL-VALID-24H')).toBe('fail');
    expect(
      judgeTrace([success, moved, fetched(labelled, 2, { status: 404 })]).verdict('RES-RESULT-URL-VALID-24H'),
    ).not.toBe('fail');
  });
});

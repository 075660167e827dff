import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readAiLabel } from '../../src/fixtures/ai-label-reader.ts';
import { encodeJpegSegment, jpegMarker, readJpegSegments, rebuildJpeg } from '../../src/fixtures/jpeg-segments.ts';
import { encodePngText, readPngChunks, readPngText, rebuildPng } from '../../src/fixtures/png-chunks.ts';
import { relabel } from './classes/reference-choices.ts';

const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"/></rdf:RDF></x:xmpmeta>`;
const image = (format: 'png' | 'jpeg') =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#884422' } })
    [format]()
    .toBuffer();

describe('relabel (variant ai-label-in-text-metadata)', () => {
  it('moves a PNG label from XMP to a tEXt chunk, keeping the pixels', async () => {
    const png = rebuildPng(await image('png'), [encodePngText('XML:com.adobe.xmp', xmp)]);
    expect(readAiLabel(png)).toBeDefined();
    const out = relabel(png);
    expect(readAiLabel(out)).toBeUndefined();
    const texts = readPngChunks(out)
      .map((c) => readPngText(c))
      .filter((t) => t !== undefined);
    expect(texts).toEqual([
      { keyword: 'AI-Label', text: expect.stringContaining('compositeWithTrainedAlgorithmicMedia') },
    ]);
    expect(await sharp(out).raw().toBuffer()).toEqual(await sharp(png).raw().toBuffer());
  });

  it('moves a JPEG label from XMP to a COM segment', async () => {
    const jpeg = rebuildJpeg(await image('jpeg'), [
      encodeJpegSegment(
        jpegMarker.APP1,
        Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp)]),
      ),
    ]);
    expect(readAiLabel(jpeg)).toBeDefined();
    const out = relabel(jpeg);
    expect(readAiLabel(out)).toBeUndefined();
    const comments = readJpegSegments(out)
      .filter((s) => s.marker === jpegMarker.COM)
      .map((s) => s.payload.toString('latin1'));
    expect(comments).toEqual([expect.stringMatching(/^AI-Label: Made with AI/)]);
    await expect(sharp(out).metadata()).resolves.toMatchObject({ width: 8, height: 8 });
  });
});

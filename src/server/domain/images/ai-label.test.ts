/**
 * The AI label packet (openapi.yaml, "AI label on results"): a proper XMP packet declaring the
 * IPTC digital source type, which the shared reader finds.
 */
import { describe, expect, it } from 'vitest';
import { digitalSourceType } from '../../../fixtures/ai-label-reader.ts';
import { aiDigitalSourceType, aiLabelXmp } from './ai-label.ts';

describe('aiLabelXmp', () => {
  it('declares compositeWithTrainedAlgorithmicMedia as the digital source type', () => {
    expect(aiDigitalSourceType).toBe(
      'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
    );
    expect(digitalSourceType(aiLabelXmp)).toBe(aiDigitalSourceType);
  });

  it('is an xpacket-wrapped x:xmpmeta / rdf:RDF packet binding the IPTC Extension namespace', () => {
    expect(aiLabelXmp).toMatch(/^<\?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"\?>/);
    expect(aiLabelXmp).toMatch(
      /<x:xmpmeta xmlns:x="adobe:ns:meta\/">[\s\S]*<rdf:RDF [\s\S]*<\/rdf:RDF>[\s\S]*<\/x:xmpmeta>/,
    );
    expect(aiLabelXmp).toContain('xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"');
    expect(aiLabelXmp).toMatch(/<\?xpacket end="[rw]"\?>$/);
  });
});

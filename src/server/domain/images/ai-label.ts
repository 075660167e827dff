/**
 * The AI label of result images (spec, "What the service does": every result image carries a
 * machine-readable label in its metadata saying it was made with AI; openapi.yaml, "AI label on
 * results": IPTC `DigitalSourceType` in XMP). The reader lives in src/fixtures, because the suite
 * checks any target's results with the same code.
 */
import { iptcExtNamespace } from '../../../fixtures/ai-label-reader.ts';

export { readAiLabel } from '../../../fixtures/ai-label-reader.ts';

/** The IPTC digital source type of a try-on: a photo composited with a trained model's output. */
export const aiDigitalSourceType =
  'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia';

/** The XMP packet written into every result image (sharp `withXmp`). */
export const aiLabelXmp = [
  '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
  '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
  ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
  `  <rdf:Description rdf:about="" xmlns:Iptc4xmpExt="${iptcExtNamespace}"`,
  `    Iptc4xmpExt:DigitalSourceType="${aiDigitalSourceType}"/>`,
  ' </rdf:RDF>',
  '</x:xmpmeta>',
  '<?xpacket end="r"?>',
].join('\n');

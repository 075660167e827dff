/** Source mutants for the machine-readable AI label, read rather than matched. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the edits are the server's own template literals
import type { SourceMutant } from './source-mutant.ts';

const label = 'src/server/domain/images/ai-label.ts';
const property = '  `    Iptc4xmpExt:DigitalSourceType="${aiDigitalSourceType}"/>`,';

export const parsingMutants: readonly SourceMutant[] = [
  {
    name: 'ai-label-property-misspelt',
    file: label,
    family: 'validation',
    class: 'parsing',
    breaks: ['SVC-RESULT-AI-LABEL'],
    does: 'the XMP label names its property Iptc4xmpExt:DigitalSourceTyp: no reader finds a DigitalSourceType, though the IPTC term is in the bytes',
    edits: [{ find: property, replace: property.replace('DigitalSourceType=', 'DigitalSourceTyp=') }],
  },
  {
    name: 'ai-label-xpacket-unclosed',
    file: label,
    family: 'validation',
    class: 'parsing',
    breaks: ['SVC-RESULT-AI-LABEL'],
    does: 'the XMP packet opens with <?xpacket begin?> but its closing <?xpacket end?> is left out: a truncated packet, not machine-readable',
    edits: [{ find: '  \'<?xpacket end="r"?>\',\n', replace: '' }],
  },
  {
    name: 'ai-label-namespace-uri-wrong',
    file: label,
    family: 'validation',
    class: 'parsing',
    breaks: ['SVC-RESULT-AI-LABEL'],
    does: "the prefix Iptc4xmpExt is bound to http://iptc.org/std/Iptc4xmpExt/2008-02-29 (no trailing slash): the right prefix on a wrong namespace URI, so the property is not IPTC's",
    edits: [
      {
        find: 'xmlns:Iptc4xmpExt="${iptcExtNamespace}"',
        replace: 'xmlns:Iptc4xmpExt="${iptcExtNamespace.slice(0, -1)}"',
      },
    ],
  },
  {
    name: 'ai-label-in-description',
    file: label,
    family: 'validation',
    class: 'parsing',
    breaks: ['SVC-RESULT-AI-LABEL'],
    does: 'the IPTC term is written into dc:description, a free-text caption, instead of a label property',
    edits: [
      {
        find: ['  `  <rdf:Description rdf:about="" xmlns:Iptc4xmpExt="${iptcExtNamespace}"`,', property].join('\n'),
        replace: [
          '  \'  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"\',',
          '  `    dc:description="Source: ${aiDigitalSourceType}"/>`,',
        ].join('\n'),
      },
    ],
  },
];

/** A slow multipart body: the head at once, the rest after the hold, and a form any parser reads whole. */
import { describe, expect, it } from 'vitest';
import { heldMultipart } from './held-multipart.ts';

const part = { field: 'file', filename: 'a "b"\r\n.png', contentType: 'image/png', bytes: Buffer.alloc(300, 7) };

describe('heldMultipart', () => {
  it('gives the head and first bytes, then nothing until the hold ends, then the rest', async () => {
    let release = (): void => {};
    let started = 0;
    const until = new Promise<void>((resolve) => (release = resolve));
    const held = heldMultipart(part, { until, started: () => started++ });
    const chunks = held.body[Symbol.asyncIterator]();
    const first = await chunks.next();
    expect(Buffer.from(first.value as Uint8Array).toString('latin1')).toMatch(/^--.+\r\nContent-Disposition/);
    const rest = chunks.next();
    const early = await Promise.race([rest.then(() => 'the rest'), new Promise((r) => setTimeout(r, 30, 'nothing'))]);
    expect({ beforeTheHoldEnds: early, started }).toEqual({ beforeTheHoldEnds: 'nothing', started: 1 });
    release();
    const second = await rest;
    expect((await chunks.next()).done).toBe(true);
    const whole = Buffer.concat([first.value as Uint8Array, second.value as Uint8Array]);
    expect(whole.length).toBe(held.length);
  });

  it('is a form with the one file, its name quoted so that it cannot end the header', async () => {
    const held = heldMultipart(part, { until: Promise.resolve() });
    const chunks: Uint8Array[] = [];
    for await (const chunk of held.body) chunks.push(chunk);
    const form = await new Response(Buffer.concat(chunks), {
      headers: { 'content-type': held.contentType },
    }).formData();
    const file = form.get('file') as File;
    expect({ name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) }).toEqual({
      // Parsers of HTML forms read the escaped quote and line break back.
      name: part.filename,
      type: 'image/png',
      bytes: part.bytes,
    });
  });
});

// One decode worker of the decode pool (decode-pool.ts). Plain JavaScript so that it loads in any
// runner (node, tsx, vitest) without a TypeScript loader. It decodes every pixel of one image at a
// time under sharp's own bounds: the pixel cap, failOn 'error' (truncated or corrupt data fails),
// sequential reading (rows stream through instead of the whole image being kept), libvips' default
// safety limits (unlimited: false), and a timeout that libvips checks while it works, so an
// over-long decode stops itself; the pool's deadline terminates the worker if even that fails.
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';

sharp.cache(false);
parentPort.postMessage('ready');

parentPort.on('message', async (job) => {
  try {
    await sharp(job.bytes, { failOn: 'error', limitInputPixels: job.maxPixels, sequentialRead: true, unlimited: false })
      .timeout({ seconds: job.timeoutSeconds })
      // A tiny output still needs every row of the input; shrink-on-load keeps the work small.
      .resize({ width: 32, height: 32, fit: 'inside' })
      .raw()
      .toBuffer();
    parentPort.postMessage({ id: job.id, ok: true });
  } catch (error) {
    const reason = String(error instanceof Error ? error.message : error);
    parentPort.postMessage({ id: job.id, ok: false, timedOut: /timeout/i.test(reason), reason });
  }
});

/**
 * `--record FILE`: every exchange appended to a file as it ends, NDJSON (one a line) or HAR 1.2
 * (streamed: the head first, the entries, the closing on `close()`, so the file is valid HAR once
 * the proxy stops). Bounded: past `maxBytes` on disk, or when the disk falls behind by more than
 * `maxPendingBytes`, exchanges are no longer written, and one warning line says so.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { harHead, harTail, toHarEntry, toNdjsonLine, type RecordingFormat } from '../traffic/recording.ts';
import type { TrafficExchange } from '../traffic/traffic-exchange.ts';
import type { ExchangeObserver } from './observer.ts';

export interface RecorderOptions {
  readonly path: string;
  readonly format: RecordingFormat;
  /** The most bytes the file may grow to (default 1 GiB). */
  readonly maxBytes?: number;
  /** The most bytes waiting for the disk at once (default 16 MiB). */
  readonly maxPendingBytes?: number;
  readonly version: string;
  readonly warn: (line: string) => void;
}

export interface Recorder extends ExchangeObserver {
  /** Exchanges written, and those left out past a bound. */
  readonly written: number;
  readonly skipped: number;
  /** Ends the file (HAR: its closing) and waits until it is on disk. */
  close(): Promise<void>;
}

/** Opens `path` for writing (truncating it) and returns the recorder. */
export function openRecorder(options: RecorderOptions): Recorder {
  const maxBytes = options.maxBytes ?? 1024 ** 3;
  const maxPending = options.maxPendingBytes ?? 16 * 1024 * 1024;
  const file: WriteStream = createWriteStream(options.path, { flags: 'w' });
  let failed: string | undefined;
  file.on('error', (error) => {
    failed ??= error.message;
    options.warn(`proxy: --record ${options.path} cannot be written (${error.message}); recording stops`);
  });
  let size = 0;
  let written = 0;
  let skipped = 0;
  let stopped = false;
  const put = (text: string) => {
    size += Buffer.byteLength(text);
    file.write(text);
  };
  if (options.format === 'har') put(harHead(options.version));
  const tailBytes = options.format === 'har' ? harTail.length : 0;
  return {
    observe(traffic: TrafficExchange) {
      if (failed !== undefined) return;
      const record =
        options.format === 'har' ? `${written > 0 ? ',\n' : ''}${toHarEntry(traffic)}` : `${toNdjsonLine(traffic)}\n`;
      const over = size + Buffer.byteLength(record) + tailBytes > maxBytes || file.writableLength > maxPending;
      if (stopped || over) {
        skipped += 1;
        if (!stopped) {
          stopped = true;
          const why = file.writableLength > maxPending ? 'the disk fell behind' : `the file reached ${maxBytes} bytes`;
          options.warn(`proxy: --record ${options.path}: ${why}; later exchanges are not recorded`);
        }
        return;
      }
      put(record);
      written += 1;
    },
    get written() {
      return written;
    },
    get skipped() {
      return skipped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (options.format === 'har' && failed === undefined) file.write(harTail);
        file.end(() => resolve());
        file.once('error', () => resolve());
      }),
  };
}

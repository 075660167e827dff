/** Unguessable identifiers for try-ons, uploaded images, result files and API keys. */
import { randomBytes } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `n` random base62 characters (rejection sampling keeps them uniform). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248 && out.length < n) out += alphabet[byte % 62];
    }
  }
  return out;
}

export const newTryOnId = (): string => `ton_${randomBase62(20)}`;
/** Spec: Uploaded image — "Begins with `img_`." */
export const newImageId = (): string => `img_${randomBase62(20)}`;
export const newAccountId = (): string => `acct_${randomBase62(16)}`;
export const newResultFile = (format: 'jpeg' | 'png'): string =>
  `r_${randomBase62(28)}.${format === 'jpeg' ? 'jpg' : 'png'}`;

/** The reference server's files the source mutants edit most, named once. */
export const store = 'src/server/store/sqlite-store.ts';
export const starts = 'src/server/domain/tryon-starts.ts';
export const limiter = 'src/server/domain/rate-limiter.ts';
export const request = 'src/server/domain/create-request.ts';
export const queue = 'src/server/domain/generation-queue.ts';
export const fetcher = 'src/server/domain/image-fetch/image-fetcher.ts';

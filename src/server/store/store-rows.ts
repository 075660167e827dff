/**
 * The stores' rows as the Store's records (snake_case columns to camelCase fields): one mapping for SQLite and
 * PostgreSQL, whose tables have the same columns.
 */
import type { ScenarioName } from '../../fixtures/scenarios.ts';
import type { ImageRecord, KeyRecord, ResultRecord, TryOnRecord } from './store.ts';

export interface KeyRow {
  account_id: string;
  hash: Buffer;
  revoked_at: number | null;
}

export interface ImageRow {
  id: string;
  account_id: string;
  format: ImageRecord['format'];
  bytes: Buffer | null;
  scenario: string | null;
  created_at: number;
  expires_at: number;
}

export interface TryOnRow {
  id: string;
  account_id: string;
  status: TryOnRecord['status'];
  scenario: string | null;
  title: string | null;
  created_at: number;
  finished_at: number | null;
  result_file: string | null;
  message: string | null;
}

export interface ResultRow {
  file: string;
  tryon_id: string;
  format: ResultRecord['format'];
  bytes: Buffer;
  expires_at: number;
}

/** A key row as a KeyRecord. */
export const keyOf = (row: KeyRow): KeyRecord => ({
  accountId: row.account_id,
  hash: row.hash,
  revokedAt: row.revoked_at,
});

/** An image row as an ImageRecord. */
export const imageOf = (row: ImageRow): ImageRecord => ({
  id: row.id,
  accountId: row.account_id,
  format: row.format,
  bytes: row.bytes,
  scenario: row.scenario as ScenarioName | null,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** A try-on row as a TryOnRecord. */
export const tryOnOf = (row: TryOnRow): TryOnRecord => ({
  id: row.id,
  accountId: row.account_id,
  status: row.status,
  scenario: row.scenario as ScenarioName | null,
  title: row.title,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  resultFile: row.result_file,
  message: row.message,
});

/** A result row as a ResultRecord. */
export const resultOf = (row: ResultRow): ResultRecord => ({
  file: row.file,
  tryOnId: row.tryon_id,
  format: row.format,
  bytes: row.bytes,
  expiresAt: row.expires_at,
});

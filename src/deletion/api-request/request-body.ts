// The body `plants api` sends, as the check for a method override reads it (asked-delete.ts).

/** A body of more than INSPECTED_BYTES in a file: sent from the file, opened again for each attempt. */
export interface FileBody {
  path: string;
  size: number;
}

/**
 * A body up to this size is read whole, and searched for a method override
 * (override.ts); a larger one is only scanned for the word (mayNameMethod),
 * and a file that large is streamed from the disk.
 */
export const INSPECTED_BYTES = 16 * 1024 * 1024;

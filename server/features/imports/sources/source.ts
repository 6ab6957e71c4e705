import type { ImportSource } from '../../../../src/imports/import.schema.js';

/**
 * What every source reader gives the import (import.service.ts): the links as the source has them, and
 * their visits where the source keeps each one. Readers check nothing of ours (slugs, destinations,
 * conflicts): they only read faithfully, and refuse what is not their format.
 */

/** One visit as the source recorded it. */
export interface SourceVisit {
  /** When, in ms since the epoch. */
  at: number;
  userAgent: string | null;
  referrer: string | null;
  /** "City, Country" or "Country" as the analytics store it (geo.ts's format), when the source located it. */
  location: string | null;
  /** An address, when the source kept one (YOURLS). */
  ipAddress: string | null;
  /** The source called it a bot (Shlink's potentialBot). */
  bot: boolean;
}

/** One link as the source has it. */
export interface SourceLink {
  /** The back-half exactly as the source has it (case kept). */
  slug: string;
  destination: string;
  title: string | null;
  /** ms since the epoch. */
  createdAt: number | null;
  tags: string[];
  /** The source's short domain of the link (`s.example.com`), when it names one; null: its default. */
  domain: string | null;
  /** The visit count the source shows, when it has one. */
  visitCount: number | null;
  /** The source's own short URL of the link, when it gives or implies one. */
  shortUrl: string | null;
}

/** A file read: its links, and the visits of each (by index in `links`) where the file holds them. */
export interface SourceFile {
  source: ImportSource;
  links: SourceLink[];
  /** Absent: the file has no visit history. */
  visits?: Map<number, SourceVisit[]>;
}

/** A refusal of a reader, in words the user reads (the service turns it into a 400 / 422). */
export class SourceError extends Error {}

/** A server's API, read page by page. */
export interface SourceApi {
  source: ImportSource;
  /** Every link (the reader follows the pages). */
  links(): Promise<SourceLink[]>;
  /** A link's visits, when the source keeps them (Shlink); absent for sources that only count (Kutt). */
  visits?(link: SourceLink): Promise<SourceVisit[]>;
}

import { z } from 'zod';

/**
 * The way out: the owner's whole redirect table as a file another server can serve, so the short
 * domain can move without reprinting a code. GET /api/qr-codes/redirects/export?format=…
 */
export const REDIRECT_EXPORT_FORMATS = ['csv', 'nginx', 'caddy', 'netlify'] as const;
export type RedirectExportFormat = (typeof REDIRECT_EXPORT_FORMATS)[number];

export const redirectExportInput = z.object({
  format: z.enum(REDIRECT_EXPORT_FORMATS, {
    error: `format must be one of ${REDIRECT_EXPORT_FORMATS.join(', ')}`,
  }),
});
export type RedirectExportInput = z.output<typeof redirectExportInput>;

/** What the menu calls each format, with the file it downloads. */
export const redirectExportFiles: Record<
  RedirectExportFormat,
  { label: string; description: string; fileName: string }
> = {
  csv: {
    label: 'CSV',
    description: 'slug, short URL, destination, name and what is not exported, for a spreadsheet or a script',
    fileName: 'qr-redirects.csv',
  },
  nginx: {
    label: 'nginx map',
    description: 'a map and a server block to include in nginx’s http block',
    fileName: 'qr-redirects.nginx.conf',
  },
  caddy: {
    label: 'Caddyfile',
    description: 'a site block for the short domain',
    fileName: 'Caddyfile',
  },
  netlify: {
    label: 'Netlify _redirects',
    description: 'one line per code, for the published folder of a Netlify site',
    fileName: '_redirects',
  },
};

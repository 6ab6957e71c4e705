// `npm run sdk:generate`: writes sdk/src/schema.d.ts from the OpenAPI document, built in-process from
// the route tables (no server, no database), as GET /api/openapi.json would answer it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { openApiDocument } from '../../server/rest/openapi.js';
import { restTables } from '../../server/rest/rest-plugin.js';
import { SCHEMA_FILE, schemaSource } from './schema-source.js';

const source = await schemaSource(openApiDocument(restTables, 'http://localhost:3000'));
const before = await fs.readFile(SCHEMA_FILE, 'utf8').catch(() => '');
await fs.writeFile(SCHEMA_FILE, source);
const lines = source.split('\n').length;
process.stdout.write(
  `${path.relative(process.cwd(), SCHEMA_FILE)}: ${before === source ? 'unchanged' : 'written'} (${lines} lines).\n`,
);

import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../server/rest/openapi.js';
import { restTables } from '../server/rest/rest-plugin.js';
const doc = openApiDocument(restTables, 'http://localhost');
writeFileSync(process.argv[2] ?? '/tmp/doc/openapi.json', JSON.stringify(doc, null, 2));

import fs from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_FILE, schemaSource } from '../../scripts/sdk/schema-source.js';
import { createTestApp, type TestApp } from '../../server/test/test-app.js';
import { createTestDb, type TestDb } from '../../server/test/test-db.js';

// The SDK is generated from the document the server publishes: these tests regenerate its types from
// the running server and check that the committed ones, the SDK and its example agree with them.

const sdkDir = path.resolve(import.meta.dirname, '..');
const EXAMPLE = path.join(sdkDir, 'examples/integrator.ts');

const parsed = new Map<string, ts.SourceFile>();

/** Type errors of the SDK's project (sdk/tsconfig.json) with `schema` in place of src/schema.d.ts. */
function typeErrors(schema: string): string[] {
  const configFile = path.join(sdkDir, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configFile}`);
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  const same = (file: string) => path.resolve(file) === SCHEMA_FILE;
  host.readFile = (file) => (same(file) ? schema : readFile(file));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError, create) => {
    if (same(file)) return ts.createSourceFile(file, schema, language);
    // Parsed once for every check: the libraries and node's types are most of the work.
    let source = parsed.get(file);
    if (!source) {
      source = getSourceFile(file, language, onError, create);
      if (source) parsed.set(file, source);
    }
    return source;
  };
  const program = ts.createProgram(config.fileNames, config.options, host);
  expect(config.fileNames).toContain(EXAMPLE);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return text;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${path.relative(sdkDir, d.file.fileName)}:${line + 1}:${character + 1} ${text}`;
  });
}

/** Casts, `any` and non-null assertions in a file: what a caller should never need. */
function escapes(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const what = ts.isAsExpression(node)
      ? 'as'
      : ts.isTypeAssertionExpression(node)
        ? '<T>'
        : node.kind === ts.SyntaxKind.AnyKeyword
          ? 'any'
          : ts.isNonNullExpression(node)
            ? '!'
            : undefined;
    if (what) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${what} at line ${line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the SDK against the running server', () => {
  let db: TestDb;
  let t: TestApp;
  let regenerated: string;

  beforeAll(async () => {
    db = await createTestDb('sqlite');
    t = await createTestApp(db);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}/api/openapi.json`);
    expect(res.status).toBe(200);
    regenerated = await schemaSource(await res.text());
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  it('has the types the server documents (else: run npm run sdk:generate)', async () => {
    const committed = await fs.readFile(SCHEMA_FILE, 'utf8');
    if (committed !== regenerated) {
      const a = committed.split('\n');
      const b = regenerated.split('\n');
      const first = a.findIndex((line, i) => line !== b[i]);
      expect.fail(
        `sdk/src/schema.d.ts differs from the running server's /api/openapi.json from line ${first + 1} ` +
          `(committed: ${JSON.stringify(a[first])}, served: ${JSON.stringify(b[first])}): run npm run sdk:generate`,
      );
    }
  });

  it(
    'type-checks the SDK and the integrator example against the regenerated types',
    { timeout: 60_000 },
    () => {
      expect(typeErrors(regenerated)).toEqual([]);
    },
  );

  it('and the example needs no cast, any or non-null assertion', async () => {
    expect(escapes(EXAMPLE, await fs.readFile(EXAMPLE, 'utf8'))).toEqual([]);
  });

  it(
    'the checks can fail: a path the document lacks is a type error, a cast is found',
    { timeout: 60_000 },
    () => {
      const broken = regenerated.replace("/qr-codes/{id}/image': {", "/qr-codes/{id}/picture': {");
      expect(broken).not.toBe(regenerated);
      expect(typeErrors(broken).join('\n')).toMatch(/src\/index\.ts:\d+:\d+ /);
      expect(escapes('x.ts', 'const a = b as string; let c: any = d!;')).toHaveLength(3);
    },
  );
});

// The extraction check (issue 37): words on the client's screens that are not in the catalogs because they
// were never marked for translation. Read with TypeScript's parser:
//  - JSX text with a letter in it, outside Lingui's <Trans>, <Plural>, <Select>, <SelectOrdinal>;
//  - a string (or a template with text) given to a prop people read: label, placeholder, title,
//    description, aria-label, alt, error, tooltip, message and their like;
//  - a string given to the toasts (notify.success/error/info/warning).
// Brand and format names (QR Creator, PNG, vCard…) and text without a letter are no words to translate.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const LINGUI_ELEMENTS = new Set(['Trans', 'Plural', 'Select', 'SelectOrdinal']);
const READ_PROPS =
  /^(label|placeholder|title|description|aria-label|aria-description|aria-valuetext|alt|error|tooltip|message|confirmLabel|cancelLabel|emptyMessage|nothingFoundMessage|helperText|caption|legend|heading|subtitle|hint)$/;
/** Not words of a language: names of the product, of formats and standards, and units. */
const NOT_WORDS =
  /^(QR Creator|QR|PNG|SVG|PDF|EPS|JPEG|JPG|WebP|CSV|JSON|XLSX|API|REST|URL|URLs|UTM|vCard|Wi-Fi|WPA|WEP|WPA\/WPA2|UTF-8|HTTP|HTTPS|OpenAPI|SDK|Zapier|Slack|Plausible|Matomo|Umami|Google Sheets|Shlink|Kutt|YOURLS|Bitly|Dub|nginx|Caddy|Netlify|CMYK|RGB|DPI|dpi|px|mm|cm|in|pt|ms|KB|MB|GB|ID|OK|iOS|Android|GitHub|OIDC|LDAP|SSO|2FA|TOTP|Markdown|ISO|UTC|GMT|[A-Z]{1,4}\d*)$/;

export interface Unlocalized {
  file: string;
  line: number;
  text: string;
}

const hasWords = (text: string) => {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  // An address, a link, a path, a host name or an id shows the reader what to type: not words either.
  const sample = /^(\S+@\S+\.\S+|https?:\/\/\S*|\/\S*|[\w-]+(\.[\w-]+)*\.[a-z]{2,}|[A-Z0-9_-]+)$/.test(
    trimmed,
  );
  return /\p{L}/u.test(trimmed) && !NOT_WORDS.test(trimmed) && !sample ? trimmed : null;
};

function elementName(node: ts.JsxElement | ts.JsxSelfClosingElement | ts.JsxFragment): string {
  if (ts.isJsxFragment(node)) return '';
  const tag = ts.isJsxElement(node) ? node.openingElement.tagName : node.tagName;
  return tag.getText();
}

function insideLingui(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (
      (ts.isJsxElement(parent) || ts.isJsxSelfClosingElement(parent)) &&
      LINGUI_ELEMENTS.has(elementName(parent))
    )
      return true;
  }
  return false;
}

/** The literal text of an expression a prop or toast gets: a string, a template's text, either branch. */
function literalTexts(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
  if (ts.isConditionalExpression(node))
    return [...literalTexts(node.whenTrue), ...literalTexts(node.whenFalse)];
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
    return literalTexts(node.right);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken)
    return literalTexts(node.right);
  if (ts.isParenthesizedExpression(node)) return literalTexts(node.expression);
  return [];
}

/** The unmarked words of one file. */
export function unlocalizedIn(file: string, source: string): Unlocalized[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Unlocalized[] = [];
  const report = (node: ts.Node, text: string) =>
    found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text });
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = hasWords(node.text);
      if (text && !insideLingui(node)) report(node, text);
    } else if (ts.isJsxAttribute(node) && READ_PROPS.test(node.name.getText(sf)) && node.initializer) {
      const init = node.initializer;
      const texts = ts.isStringLiteral(init)
        ? [init.text]
        : ts.isJsxExpression(init) && init.expression
          ? literalTexts(init.expression)
          : [];
      for (const text of texts.map(hasWords)) if (text) report(node, text);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.getText(sf) === 'notify'
    ) {
      for (const arg of node.arguments)
        for (const text of literalTexts(arg).map(hasWords)) if (text) report(arg, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every client source file (not tests): features, components, lib, i18n and client/'s top. */
export function clientSources(clientRoot: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['e2e', 'public', 'locales'].includes(entry.name)) walk(full);
      } else if (/\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name)) files.push(full);
    }
  };
  walk(clientRoot);
  return files.sort();
}

export function unlocalizedStrings(clientRoot: string): Unlocalized[] {
  return clientSources(clientRoot).flatMap((file) =>
    unlocalizedIn(path.relative(path.dirname(clientRoot), file), readFileSync(file, 'utf8')),
  );
}

// The extraction check (issue 37): every word on the client's screens goes through the catalogs.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unlocalizedIn, unlocalizedStrings } from '../../scripts/i18n/unlocalized';

describe('words on the screens', () => {
  it('are all marked for translation', () => {
    const found = unlocalizedStrings(path.resolve(import.meta.dirname, '..'));
    expect(found.map((u) => `${u.file}:${u.line}: ${u.text}`)).toEqual([]);
  });

  it('are found unmarked in JSX text, in props people read and in toasts, and not when marked', () => {
    const source = `
      import { Trans, useLingui } from '@lingui/react/macro';
      export function Page({ n }: { n: number }) {
        const { t } = useLingui();
        notify.success('Saved', t\`Your code is saved\`);
        return (
          <Stack>
            <Title>My QR Codes</Title>
            <Trans>Read the <Anchor>guide</Anchor> first.</Trans>
            <TextInput label="Name" placeholder={t\`Summer menu\`} aria-label={n > 1 ? 'Codes' : t\`Code\`} />
            <Badge title={\`\${n} scans\`}>PNG</Badge>
            <Text>{n} · 42</Text>
          </Stack>
        );
      }`;
    expect(unlocalizedIn('Page.tsx', source).map((u) => `${u.line}: ${u.text}`)).toEqual([
      '5: Saved',
      '8: My QR Codes',
      '10: Name',
      '10: Codes',
      '11: scans',
    ]);
  });
});

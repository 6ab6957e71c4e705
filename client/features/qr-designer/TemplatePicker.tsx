import { useLingui } from '@lingui/react/macro';
import { SimpleGrid } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import {
  customizationSchema,
  templates,
  TRANSPARENT,
  type Customization,
} from '../../../src/qr/customization';
import { translateShared } from '../../i18n/shared-messages';
import classes from './qr-designer.module.css';

/** The design without the logo: a template keeps the user's logo, so it does not tell templates apart. */
function normalized(c: Customization): string | null {
  const parsed = customizationSchema.safeParse(c);
  if (!parsed.success) return null;
  const { logo: _logo, ...design } = parsed.data;
  return JSON.stringify(design);
}

/** A template's design, keeping the logo the user already added (templates have none of their own). */
export function applyTemplate(current: Customization, template: Customization): Customization {
  const next = structuredClone(template);
  return current.logo && !next.logo ? { ...next, logo: current.logo } : next;
}

/** The template whose design the customization is exactly (logo aside), if any. */
export function matchingTemplateId(c: Customization): string | null {
  const current = normalized(c);
  if (current === null) return null;
  return templates.find((t) => normalized(t.customization) === current)?.id ?? null;
}

/** Eight preset cards; applying one replaces the whole design (logo and frame included). */
export function TemplatePicker({
  value,
  onApply,
}: {
  value: Customization;
  onApply: (c: Customization) => void;
}) {
  const { t } = useLingui();
  const active = matchingTemplateId(value);
  return (
    <SimpleGrid
      cols={{ base: 2, xs: 4 }}
      spacing="xs"
      verticalSpacing="xs"
      role="group"
      aria-label={t`Templates`}
    >
      {templates.map((template) => {
        const c = template.customization;
        const framed = c.frame?.enabled === true;
        return (
          <button
            key={template.id}
            type="button"
            className={`${classes.tile} ${classes.templateCard}`}
            aria-pressed={active === template.id}
            onClick={() => onApply(structuredClone(template.customization))}
          >
            <span
              className={`${classes.templateThumb} ${c.backgroundColor === TRANSPARENT ? classes.checker : ''}`}
              style={{
                backgroundColor: c.backgroundColor === TRANSPARENT ? undefined : c.backgroundColor,
                borderColor: framed ? c.frame?.color : undefined,
                borderWidth: framed ? 3 : undefined,
              }}
              aria-hidden
            >
              {active === template.id ? (
                <IconCheck size={18} stroke={3} color={c.foregroundColor} />
              ) : (
                <span
                  className={classes.templateThumbDot}
                  style={{
                    backgroundColor: c.foregroundColor,
                    borderRadius: c.style === 'dots' ? '50%' : c.style === 'rounded' ? 6 : undefined,
                  }}
                />
              )}
            </span>
            <span>{translateShared(template.name)}</span>
          </button>
        );
      })}
    </SimpleGrid>
  );
}

import { SimpleGrid } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import {
  customizationSchema,
  templates,
  TRANSPARENT,
  type Customization,
} from '../../../src/qr/customization';
import classes from './qr-designer.module.css';

function normalized(c: Customization): string | null {
  const parsed = customizationSchema.safeParse(c);
  return parsed.success ? JSON.stringify(parsed.data) : null;
}

/** The template whose design the customization is exactly, if any. */
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
  const active = matchingTemplateId(value);
  return (
    <SimpleGrid
      cols={{ base: 2, xs: 4 }}
      spacing="xs"
      verticalSpacing="xs"
      role="group"
      aria-label="Templates"
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
            <span>{template.name}</span>
          </button>
        );
      })}
    </SimpleGrid>
  );
}

import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldMessage, prettyJson, sendResultText } from './webhook-format';

// The log's words are said in the screens' language: English here, as the app starts.
beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('webhook-format', () => {
  it('says what a sent delivery came to', () => {
    expect(sendResultText({ state: 'succeeded', responseStatus: 200, error: null })).toEqual({
      ok: true,
      text: 'Delivered: 200',
    });
    expect(sendResultText({ state: 'retrying', responseStatus: 500, error: null }).text).toBe(
      'Not delivered: the endpoint answered 500',
    );
    expect(sendResultText({ state: 'failed', responseStatus: null, error: 'Timed out' }).text).toBe(
      'Not delivered: Timed out',
    );
  });

  it('indents JSON and leaves anything else as it is', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('not json')).toBe('not json');
  });

  it('drops the field name a schema message starts with', () => {
    expect(fieldMessage('url: enter an http:// or https:// address')).toBe(
      'Enter an http:// or https:// address',
    );
    expect(fieldMessage('Something else')).toBe('Something else');
  });
});

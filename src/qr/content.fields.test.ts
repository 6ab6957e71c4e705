import { describe, expect, it } from 'vitest';
import { emptyFields } from './content';
import { contentFields } from './content-fields';
import { qrTypes, type QrType } from './qr-types';

describe('contentFields (form fields, required fields)', () => {
  const names: Record<QrType, string[]> = {
    url: ['url'],
    email: ['email', 'subject', 'body'],
    text: ['text'],
    sms: ['phone', 'message'],
    wifi: ['ssid', 'password', 'encryption'],
    vcard: ['firstName', 'lastName', 'email', 'phone', 'organization', 'title', 'website'],
    event: ['title', 'location', 'description', 'startDate', 'endDate'],
    social: ['url'],
    pdf: ['url', 'title'],
    video: ['url', 'title'],
    image: ['url', 'title'],
    phone: ['phone'],
  };
  const required: Record<QrType, string[]> = {
    url: ['url'],
    email: ['email'],
    text: ['text'],
    sms: ['phone'],
    wifi: ['ssid', 'encryption'],
    vcard: ['firstName'],
    event: ['title', 'startDate'],
    social: ['url'],
    pdf: ['url'],
    video: ['url'],
    image: ['url'],
    phone: ['phone'],
  };

  it.each(qrTypes)('%s has the fields of its form and the required fields of the field rules', (type) => {
    const defs = contentFields[type];
    expect(defs.map((d) => d.name)).toEqual(names[type]);
    expect(defs.filter((d) => d.required).map((d) => d.name)).toEqual(required[type]);
    for (const def of defs) {
      expect(def.label).not.toBe('');
      expect(def.maxLength).toBeGreaterThanOrEqual(200);
    }
  });

  it('gives url fields 2048 characters and text 2000', () => {
    expect(contentFields.url[0]?.maxLength).toBe(2048);
    expect(contentFields.text[0]?.maxLength).toBe(2000);
  });

  it('offers WPA/WPA2, WEP and None for Wi-Fi security', () => {
    const encryption = contentFields.wifi.find((d) => d.name === 'encryption');
    expect(encryption?.kind).toBe('select');
    expect(encryption?.options).toEqual([
      { value: 'WPA', label: 'WPA/WPA2' },
      { value: 'WEP', label: 'WEP' },
      { value: 'nopass', label: 'None' },
    ]);
  });

  it('uses datetime inputs for the event dates', () => {
    expect(contentFields.event.filter((d) => d.kind === 'datetime').map((d) => d.name)).toEqual([
      'startDate',
      'endDate',
    ]);
  });
});

describe('emptyFields', () => {
  it('is every field blank, except Wi-Fi security WPA', () => {
    expect(emptyFields('wifi')).toEqual({ ssid: '', password: '', encryption: 'WPA' });
    expect(emptyFields('email')).toEqual({ email: '', subject: '', body: '' });
    expect(emptyFields('pdf')).toEqual({ url: '', title: '' });
  });

  it('treats an unknown type as url', () => {
    expect(emptyFields('carrier-pigeon')).toEqual({ url: '' });
  });
});

import { wifiEncryptionOptions } from '../../../../src/qr/content-fields.js';
import type { ContentFields } from '../../../../src/qr/content.js';
import { card, details, esc, type Body } from './html.js';
import type { ScanMessages } from './messages/index.js';

/** A JS string literal safe inside a `<script>` element (no `</script>`, no line separators). */
const scriptString = (text: string) =>
  JSON.stringify(text)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * Reads the password from the page (never from this source) and copies it; falls back to selecting it.
 * Its two words ('Copied', 'Copy password') in the page's language.
 */
function copyScript(m: ScanMessages): string {
  const copied = scriptString(m.wifi.copied);
  const copy = scriptString(m.wifi.copyPassword);
  return (
    "(function(){var b=document.getElementById('cp'),p=document.getElementById('pw');if(!b||!p)return;" +
    `b.hidden=false;function done(){b.textContent=${copied};setTimeout(function(){b.textContent=${copy}},2000)}` +
    'function select(){var r=document.createRange(),s=window.getSelection();r.selectNodeContents(p);s.removeAllRanges();s.addRange(r);' +
    "try{if(document.execCommand('copy'))done()}catch(e){}}" +
    'b.onclick=function(){if(navigator.clipboard&&window.isSecureContext)navigator.clipboard.writeText(p.textContent).then(done,select);else select()}})()'
  );
}

/**
 * The network, its security and password, a 'Copy password' button (shown by the page's only script, which
 * carries the CSP nonce) and the steps to connect. An open network says that no password is needed.
 */
export function wifiBody(f: ContentFields, m: ScanMessages): Body {
  const ssid = f.ssid ?? '';
  const open = f.encryption === 'nopass';
  const password = open ? '' : (f.password ?? '');
  const security = open
    ? m.wifi.openNetwork
    : (wifiEncryptionOptions.find((o) => o.value === f.encryption)?.label ?? f.encryption ?? '');
  const passwordHtml =
    password === ''
      ? esc(open ? m.wifi.passwordNotNeeded : m.wifi.noPasswordGiven)
      : `<span class="p" id="pw">${esc(password)}</span>`;
  const steps = [
    m.wifi.stepOpenSettings,
    m.wifi.stepPickNetwork(ssid),
    open ? m.wifi.stepOpenNetwork : password === '' ? m.wifi.stepAskOwner : m.wifi.stepEnterShown,
  ];
  return {
    kicker: m.wifi.kicker,
    heading: ssid.trim() || m.wifi.kicker,
    body:
      card(
        details([
          [m.wifi.security, security, 'text'],
          [m.wifi.password, passwordHtml, 'html'],
        ]),
      ) +
      (password === ''
        ? ''
        : `<button class="b" type="button" id="cp" hidden>${esc(m.wifi.copyPassword)}</button>`) +
      `<div class="h"><h2>${esc(m.wifi.howToConnect)}</h2><ol>${steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol></div>`,
    ...(password === '' ? {} : { script: copyScript(m) }),
  };
}

import { wifiEncryptionOptions } from '../../../../src/qr/content-fields.js';
import type { ContentFields } from '../../../../src/qr/content.js';
import { card, details, esc, label, type Body } from './html.js';

/** Reads the password from the page (never from this source) and copies it; falls back to selecting it. */
const COPY_SCRIPT =
  "(function(){var b=document.getElementById('cp'),p=document.getElementById('pw');if(!b||!p)return;" +
  'b.hidden=false;function done(){b.textContent="Copied";setTimeout(function(){b.textContent="Copy password"},2000)}' +
  'function select(){var r=document.createRange(),s=window.getSelection();r.selectNodeContents(p);s.removeAllRanges();s.addRange(r);' +
  "try{if(document.execCommand('copy'))done()}catch(e){}}" +
  'b.onclick=function(){if(navigator.clipboard&&window.isSecureContext)navigator.clipboard.writeText(p.textContent).then(done,select);else select()}})()';

/**
 * The network, its security and password, a 'Copy password' button (shown by the page's only script, which
 * carries the CSP nonce) and the steps to connect. An open network says that no password is needed.
 */
export function wifiBody(f: ContentFields): Body {
  const ssid = f.ssid ?? '';
  const open = f.encryption === 'nopass';
  const password = open ? '' : (f.password ?? '');
  const security = open
    ? 'None (open network)'
    : (wifiEncryptionOptions.find((o) => o.value === f.encryption)?.label ?? f.encryption ?? '');
  const passwordHtml =
    password === ''
      ? esc(open ? 'Not needed: the network is open' : 'No password given')
      : `<span class="p" id="pw">${esc(password)}</span>`;
  const steps = [
    'Open the Wi-Fi settings of your phone or computer.',
    `Pick the network “${ssid}”.`,
    open
      ? 'It is an open network: no password is needed.'
      : password === ''
        ? 'Enter the password if asked (ask the owner of the network).'
        : 'Enter the password shown above (Copy password, then paste it).',
  ];
  return {
    kicker: 'Wi-Fi network',
    heading: ssid.trim() || 'Wi-Fi network',
    body:
      card(
        details([
          [label('wifi', 'encryption'), security, 'text'],
          [label('wifi', 'password'), passwordHtml, 'html'],
        ]),
      ) +
      (password === '' ? '' : '<button class="b" type="button" id="cp" hidden>Copy password</button>') +
      `<div class="h"><h2>How to connect</h2><ol>${steps.map((s) => `<li>${esc(s)}</li>`).join('')}</ol></div>`,
    ...(password === '' ? {} : { script: COPY_SCRIPT }),
  };
}

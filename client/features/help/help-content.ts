// Everything the Help dialog says, as plain data: the component only lays it out (and translates each
// message into the screens' language), so wording can be reviewed (and tested) without rendering anything.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { DEFAULT_FREE_LIMIT, plans, PRO_PLAN_LIMIT } from '../../../src/plans.js';

/** A message of the dialog, translated where it is drawn (HelpDialog). */
type Text = MessageDescriptor;

export type HelpTabValue = 'getting-started' | 'qr-types' | 'features' | 'faq';

export interface HelpTab {
  value: HelpTabValue;
  label: Text;
  /** Visible heading at the top of the panel. */
  heading: Text;
  intro: Text;
}

export interface GettingStartedStep {
  title: Text;
  description: Text;
  tips: readonly Text[];
}

/** The type names the dialog describes; `phone` has no tile of its own (see its card). */
export type HelpQrType = 'url' | 'email' | 'text' | 'sms' | 'wifi' | 'vcard' | 'event' | 'phone';

export interface QrTypeCard {
  type: HelpQrType;
  title: Text;
  description: Text;
  bestFor: readonly Text[];
  /** Extra how-to line, shown under the description. */
  note?: Text;
}

export type FeatureValue = 'customisation' | 'analytics' | 'organisation' | 'security';

export interface LabelledPoint {
  label: Text;
  text: Text;
}

export interface FeatureSection {
  value: FeatureValue;
  title: Text;
  summary: Text;
  points: readonly LabelledPoint[];
}

export interface FaqItem {
  value: string;
  question: Text;
  paragraphs: readonly Text[];
  points?: readonly Text[];
}

const FREE_PLAN_CODES = DEFAULT_FREE_LIMIT;
const PRO_PLAN_CODES = PRO_PLAN_LIMIT;
const proPrice = plans.pro.priceMonthly;
const premiumPrice = plans.premium.priceMonthly;
// monthlyPrice (src/plans.ts) writes the monthly price in English: the sentence says it, so a language can too.
const plansLine = msg`The Free plan allows ${FREE_PLAN_CODES} codes. Pro allows up to ${PRO_PLAN_CODES} codes for $${proPrice}/month; Premium has unlimited codes for $${premiumPrice}/month.`;

// The templates as the designer names them (src/qr/customization.ts `templates`, without its zod): their
// names are src/'s English, put in the sentence at render in the app's language (HelpDialog, translateShared).
const classic = 'Classic';
const blueModern = 'Blue Modern';
const framedBusiness = 'Framed Business';
const greenEco = 'Green Eco';
const purpleCreative = 'Purple Creative';
const redAlert = 'Red Alert';
const orangeEvent = 'Orange Event';
const minimalist = 'Minimalist';

export const helpDialogTitle = msg`Help & Documentation`;
export const closeHelpLabel = msg`Close Help`;

export const helpTabs: readonly HelpTab[] = [
  {
    value: 'getting-started',
    label: msg`Getting Started`,
    heading: msg`Get started in four steps`,
    intro: msg`QR Creator lets you create, design, organise and track QR codes on your own server.`,
  },
  {
    value: 'qr-types',
    label: msg`QR Types`,
    heading: msg`Choose the right type`,
    intro: msg`The type decides what happens when someone scans your code.`,
  },
  {
    value: 'features',
    label: msg`Features`,
    heading: msg`What QR Creator can do`,
    intro: msg`Open a section to see the details.`,
  },
  {
    value: 'faq',
    label: msg`FAQ`,
    heading: msg`Frequently asked questions`,
    intro: msg`Short answers to the questions people ask most.`,
  },
];

export const gettingStartedSteps: readonly GettingStartedStep[] = [
  {
    title: msg`Create your QR code`,
    description: msg`Choose Create QR Code in the sidebar. Give the code a name, pick a type (URL, Email, Text, SMS, Wi-Fi, vCard, Event, or More for social, PDF, video and image links) and fill in its content. The live preview updates as you type.`,
    tips: [
      msg`Dynamic is switched on by default (except for Wi-Fi): the code holds a short link that you can point somewhere else later, and every scan is counted.`,
      msg`Switch Dynamic off for a static code: the content is encoded directly, so it works without this server, but it can never be edited and its scans are not tracked.`,
      msg`Press Create QR Code to save it. A static code can be downloaded and shared from the preview straight away. A dynamic code holds its short link, which exists once the code is created: Create and download under the preview creates it and saves the file in one step, and Share is available from My QR Codes.`,
      msg`Wi-Fi codes start static, so phones join the network in one tap. A dynamic Wi-Fi code opens a web page with the network name and password instead.`,
    ],
  },
  {
    title: msg`Customise its appearance`,
    description: msg`In the customisation panel, start from one of eight templates or set everything yourself: foreground and background colours, the style of the pattern, a logo, and a frame with a call-to-action such as Scan Me.`,
    tips: [
      msg`Keep strong contrast: a dark code on a light background scans most reliably.`,
      msg`Error correction sets how much of the code can be covered or damaged and still be read. Higher levels tolerate a logo or scuffs but make the pattern denser.`,
      msg`Scan the preview with your phone before you print or publish.`,
    ],
  },
  {
    title: msg`Organise with folders`,
    description: msg`Open My QR Codes to see every code you own. Create a folder with New Folder, then use Move on a code's card to put it in a folder or back in Root. The folder chips and the All QR Codes, Dynamic and Static tabs filter the list.`,
    tips: [
      msg`Deleting a folder keeps its codes: they move back to Root.`,
      msg`Edit appears on dynamic codes only, because static codes cannot change.`,
    ],
  },
  {
    title: msg`Track performance`,
    description: msg`Open Analytics for total scans, the daily trend, devices, locations and time of day across all your codes, over the last 7, 14, 30 or 90 days. Use Stats on a code's card for that code's own scans and scan history.`,
    tips: [
      msg`Only dynamic codes record scans. A static code never contacts the server, so there is nothing to count.`,
      msg`The Dashboard shows the last 7 days and your most scanned codes at a glance.`,
    ],
  },
];

export const qrTypeCards: readonly QrTypeCard[] = [
  {
    type: 'url',
    title: msg`URL / Website`,
    description: msg`Opens a web page in the scanner's browser.`,
    bestFor: [msg`product pages`, msg`menus`, msg`landing pages`, msg`review links`],
  },
  {
    type: 'email',
    title: msg`Email`,
    description: msg`Opens a new e-mail with the address, subject and message already filled in.`,
    bestFor: [msg`customer support`, msg`feedback requests`, msg`sign-ups`],
  },
  {
    type: 'text',
    title: msg`Text`,
    description: msg`Shows a short piece of plain text; no internet connection is needed to read it.`,
    bestFor: [msg`serial numbers`, msg`short instructions`, msg`labels on equipment`],
  },
  {
    type: 'sms',
    title: msg`SMS`,
    description: msg`Starts a text message to your number, optionally with a prepared message.`,
    bestFor: [msg`competitions and votes`, msg`appointment requests`, msg`opt-in keywords`],
  },
  {
    type: 'wifi',
    title: msg`Wi-Fi`,
    description: msg`Joins a Wi-Fi network (WPA/WPA2, WEP or open) without typing the name or password.`,
    bestFor: [msg`cafés and shops`, msg`guest networks`, msg`offices and holiday rentals`],
  },
  {
    type: 'vcard',
    title: msg`vCard (contact)`,
    description: msg`Saves your name, phone, e-mail, organisation, job title and website to the scanner's contacts.`,
    bestFor: [msg`business cards`, msg`name badges`, msg`trade-show stands`],
  },
  {
    type: 'event',
    title: msg`Event (calendar)`,
    description: msg`Adds an event with its title, location, description, start and end to the scanner's calendar.`,
    bestFor: [msg`conferences`, msg`webinars`, msg`weddings and parties`],
  },
  {
    type: 'phone',
    title: msg`Phone`,
    description: msg`Lets people call a number with one tap.`,
    note: msg`There is no separate Phone tile: choose Text and enter the number as tel:+15551234567. Most scanner apps then offer to call it.`,
    bestFor: [msg`support hotlines`, msg`taxi and delivery services`, msg`posters and flyers`],
  },
];

export const moreTypesNote = msg`Social, PDF, Video and Image link types are under More on the Create QR Code page. Each one encodes a link to your profile or file.`;

export const featureSections: readonly FeatureSection[] = [
  {
    value: 'customisation',
    title: msg`Customisation`,
    summary: msg`Make a code match your brand while keeping it easy to scan.`,
    points: [
      {
        label: msg`Templates`,
        text: msg({
          message: `Eight ready-made designs: ${classic}, ${blueModern}, ${framedBusiness}, ${greenEco}, ${purpleCreative}, ${redAlert}, ${orangeEvent} and ${minimalist}. Applying one sets colours, style, error correction and frame in one go.`,
          comment: "The placeholders are the templates' names, as the designer shows them in your language",
        }),
      },
      {
        label: msg`Colours`,
        text: msg`Pick the foreground and background from the palettes; the background can be transparent. Keep the code clearly darker than what is behind it.`,
      },
      {
        label: msg`Style`,
        text: msg`Square (the default), dots, rounded or classy.`,
      },
      {
        label: msg`Error correction`,
        text: msg`Low (7%), Medium (15%, the default), Quartile (25%) or High (30%): the share of the code that can be covered or damaged and still be read.`,
      },
      {
        label: msg`Logo`,
        text: msg`Upload a JPG, PNG or SVG of up to 5MB, or give its address, and set its size from 20 to 80. Keep it covering no more than 20% of the code.`,
      },
      {
        label: msg`Frame`,
        text: msg`Add a frame in a rounded, square or minimal style and your own colour, with a call-to-action: Scan Me, Learn More, Visit Us, Get Offer, Download App or Contact Us.`,
      },
    ],
  },
  {
    value: 'analytics',
    title: msg`Analytics and tracking`,
    summary: msg`Every scan of a dynamic code is recorded, so you can see what works. Static codes are not tracked.`,
    points: [
      {
        label: msg`Totals and trend`,
        text: msg`Total scans, scans today, active codes and the daily trend for the last 7, 14, 30 or 90 days.`,
      },
      {
        label: msg`Devices`,
        text: msg`Scans split into Mobile, Tablet, Desktop and Bot.`,
      },
      {
        label: msg`Locations and time of day`,
        text: msg`Top locations and an hour-by-hour chart show where and when people scan.`,
      },
      {
        label: msg`Per-code history`,
        text: msg`Stats on a code's card opens its own page: scans over time, unique locations and devices, device distribution and a scan history table.`,
      },
      {
        label: msg`Reports and exports`,
        text: msg`Under Reports & Export, choose a date range, a report type and a format: CSV, Excel, PDF or JSON.`,
      },
    ],
  },
  {
    value: 'organisation',
    title: msg`Organisation and management`,
    summary: msg`Keep many codes tidy and up to date from My QR Codes.`,
    points: [
      {
        label: msg`Folders`,
        text: msg`Create folders with New Folder. Deleting a folder moves its codes back to Root; the codes are kept.`,
      },
      {
        label: msg`Move`,
        text: msg`Move puts a code in any folder or back in Root; a checkmark shows where it is now.`,
      },
      {
        label: msg`Search and filter`,
        text: msg`Narrow the list with the All QR Codes, Dynamic and Static tabs and the folder chips.`,
      },
      {
        label: msg`Edit without reprinting`,
        text: msg`Edit a dynamic code's name, content and design at any time. Codes already printed keep working and lead to the new content. Static codes cannot be edited: create a new one instead.`,
      },
      {
        label: msg`Delete`,
        text: msg`Delete removes the code together with all of its scan analytics. This cannot be undone.`,
      },
      {
        label: msg`Plans`,
        text: plansLine,
      },
    ],
  },
  {
    value: 'security',
    title: msg`Security and privacy`,
    summary: msg`Your codes and their scans belong to you.`,
    points: [
      {
        label: msg`Owner-only analytics`,
        text: msg`The analytics of a code are visible only to its owner. Other users cannot see your codes, folders or scans.`,
      },
      {
        label: msg`Self-hosted`,
        text: msg`QR Creator runs on your own server: accounts, codes and scans stay in your own database.`,
      },
      {
        label: msg`Passwords`,
        text: msg`Passwords are stored only as argon2 hashes, never in plain text.`,
      },
      {
        label: msg`IP anonymisation`,
        text: msg`The server operator can turn on IP anonymisation, which stores scan addresses with the last part zeroed. Scan history always shows addresses masked.`,
      },
    ],
  },
];

export const faqItems: readonly FaqItem[] = [
  {
    value: 'what-is-a-qr-code',
    question: msg`What is a QR code?`,
    paragraphs: [
      msg`A QR (Quick Response) code is a square barcode that phones read with their camera. It can hold a web address, a contact card, a Wi-Fi login, a calendar event or plain text, and opens it without any typing.`,
    ],
  },
  {
    value: 'how-to-scan',
    question: msg`How do I scan a QR code?`,
    paragraphs: [
      msg`Open your phone's camera, point it at the code so the whole square is in view, then tap the link or notification that appears. Most current phones need no extra app; older ones may need a scanner app.`,
      msg`To check one of your own codes in the browser, open the scan simulator (/scan-demo), pick the code under Your QR codes (or type its ID) and press Scan. It shows the type, the content and what a phone would do with it, without a camera.`,
    ],
  },
  {
    value: 'dynamic-vs-static',
    question: msg`What is the difference between dynamic and static QR codes?`,
    paragraphs: [
      msg`A dynamic code encodes a short link to this server. When someone scans it, the server records the scan and forwards them to the current content, so you can edit the content later without reprinting and see its analytics. It needs the server to be reachable.`,
      msg`A static code encodes the content itself. It cannot be edited and records no scans, but it works forever, even without the server.`,
      msg`Use dynamic for printed material you may need to update; use static for content that never changes.`,
    ],
  },
  {
    value: 'logo-guidelines',
    question: msg`What are the guidelines for adding a logo?`,
    paragraphs: [
      msg`A logo covers part of the pattern, so the code relies on error correction to stay readable.`,
    ],
    points: [
      msg`Use a JPG, PNG or SVG file of up to 5MB.`,
      msg`Keep the logo under 20% of the code's area.`,
      msg`When a logo is set, error correction High (30%) is used.`,
      msg`Test the code with a few phones before printing.`,
    ],
  },
  {
    value: 'print-size',
    question: msg`How big should I print my QR code?`,
    paragraphs: [
      msg`At least 1cm × 1cm (0.4 inch). For scanning from further away, make the code roughly one tenth of the scanning distance: a poster read from 2 m away needs a code about 20 cm wide.`,
      msg`Keep the quiet zone, the empty margin around the code, free of text and graphics, and print with strong contrast.`,
    ],
  },
  {
    value: 'analytics-privacy',
    question: msg`Who can see my scan analytics?`,
    paragraphs: [
      msg`Only you, the owner of a code, can see its scans and analytics. Administrators manage accounts and subscriptions; the app does not show them your analytics.`,
      msg`The server operator can also turn on IP anonymisation so scan addresses are stored with the last part zeroed.`,
    ],
  },
  {
    value: 'bulk-creation',
    question: msg`Can I create many QR codes at once?`,
    paragraphs: [
      msg`Not yet: bulk creation is not available in this version. Create codes one by one with Create QR Code, and apply the same template to each so a series looks consistent.`,
      plansLine,
    ],
  },
  {
    value: 'download-formats',
    question: msg`Which download formats are available?`,
    paragraphs: [
      msg`PNG, SVG and PDF. PNG suits screens, websites, e-mails and slides; SVG and PDF stay sharp at any size, so use them for print.`,
      msg`On a code's card in My QR Codes, Download saves a PNG and SVG and PDF sit right beside it. Files are named after the code: Cafe Menu downloads as cafe-menu.png.`,
    ],
  },
];

// Everything the Help dialog says, as plain data: the component only lays it out, so wording can be
// reviewed (and tested) without rendering anything.
import { DEFAULT_FREE_LIMIT, monthlyPrice, PRO_PLAN_LIMIT } from '../../../src/plans.js';

export type HelpTabValue = 'getting-started' | 'qr-types' | 'features' | 'faq';

export interface HelpTab {
  value: HelpTabValue;
  label: string;
  /** Visible heading at the top of the panel. */
  heading: string;
  intro: string;
}

export interface GettingStartedStep {
  title: string;
  description: string;
  tips: readonly string[];
}

/** The type names the dialog describes; `phone` has no tile of its own (see its card). */
export type HelpQrType = 'url' | 'email' | 'text' | 'sms' | 'wifi' | 'vcard' | 'event' | 'phone';

export interface QrTypeCard {
  type: HelpQrType;
  title: string;
  description: string;
  bestFor: readonly string[];
  /** Extra how-to line, shown under the description. */
  note?: string;
}

export type FeatureValue = 'customisation' | 'analytics' | 'organisation' | 'security';

export interface LabelledPoint {
  label: string;
  text: string;
}

export interface FeatureSection {
  value: FeatureValue;
  title: string;
  summary: string;
  points: readonly LabelledPoint[];
}

export interface FaqItem {
  value: string;
  question: string;
  paragraphs: readonly string[];
  points?: readonly string[];
}

const FREE_PLAN_CODES = DEFAULT_FREE_LIMIT;
const pro = `Pro allows up to ${PRO_PLAN_LIMIT} codes for ${monthlyPrice('pro')}`;
const premium = `Premium has unlimited codes for ${monthlyPrice('premium')}`;

export const helpDialogTitle = 'Help & Documentation';
export const closeHelpLabel = 'Close Help';

export const helpTabs: readonly HelpTab[] = [
  {
    value: 'getting-started',
    label: 'Getting Started',
    heading: 'Get started in four steps',
    intro: 'QR Creator lets you create, design, organise and track QR codes on your own server.',
  },
  {
    value: 'qr-types',
    label: 'QR Types',
    heading: 'Choose the right type',
    intro: 'The type decides what happens when someone scans your code.',
  },
  {
    value: 'features',
    label: 'Features',
    heading: 'What QR Creator can do',
    intro: 'Open a section to see the details.',
  },
  {
    value: 'faq',
    label: 'FAQ',
    heading: 'Frequently asked questions',
    intro: 'Short answers to the questions people ask most.',
  },
];

export const gettingStartedSteps: readonly GettingStartedStep[] = [
  {
    title: 'Create your QR code',
    description:
      'Choose Create QR Code in the sidebar. Give the code a name, pick a type (URL, Email, Text, SMS, Wi-Fi, vCard, Event, or More for social, PDF, video and image links) and fill in its content. The live preview updates as you type.',
    tips: [
      'Dynamic is switched on by default (except for Wi-Fi): the code holds a short link that you can point somewhere else later, and every scan is counted.',
      'Switch Dynamic off for a static code: the content is encoded directly, so it works without this server, but it can never be edited and its scans are not tracked.',
      'Press Create QR Code to save it. A static code can be downloaded and shared from the preview straight away. A dynamic code holds its short link, which exists once the code is created: Create and download under the preview creates it and saves the file in one step, and Share is available from My QR Codes.',
      'Wi-Fi codes start static, so phones join the network in one tap. A dynamic Wi-Fi code opens a web page with the network name and password instead.',
    ],
  },
  {
    title: 'Customise its appearance',
    description:
      'In the customisation panel, start from one of eight templates or set everything yourself: foreground and background colours, the style of the pattern, a logo, and a frame with a call-to-action such as Scan Me.',
    tips: [
      'Keep strong contrast: a dark code on a light background scans most reliably.',
      'Error correction sets how much of the code can be covered or damaged and still be read. Higher levels tolerate a logo or scuffs but make the pattern denser.',
      'Scan the preview with your phone before you print or publish.',
    ],
  },
  {
    title: 'Organise with folders',
    description:
      "Open My QR Codes to see every code you own. Create a folder with New Folder, then use Move on a code's card to put it in a folder or back in Root. The folder chips and the All QR Codes, Dynamic and Static tabs filter the list.",
    tips: [
      'Deleting a folder keeps its codes: they move back to Root.',
      'Edit appears on dynamic codes only, because static codes cannot change.',
    ],
  },
  {
    title: 'Track performance',
    description:
      "Open Analytics for total scans, the daily trend, devices, locations and time of day across all your codes, over the last 7, 14, 30 or 90 days. Use Stats on a code's card for that code's own scans and scan history.",
    tips: [
      'Only dynamic codes record scans. A static code never contacts the server, so there is nothing to count.',
      'The Dashboard shows the last 7 days and your most scanned codes at a glance.',
    ],
  },
];

export const qrTypeCards: readonly QrTypeCard[] = [
  {
    type: 'url',
    title: 'URL / Website',
    description: "Opens a web page in the scanner's browser.",
    bestFor: ['product pages', 'menus', 'landing pages', 'review links'],
  },
  {
    type: 'email',
    title: 'Email',
    description: 'Opens a new e-mail with the address, subject and message already filled in.',
    bestFor: ['customer support', 'feedback requests', 'sign-ups'],
  },
  {
    type: 'text',
    title: 'Text',
    description: 'Shows a short piece of plain text; no internet connection is needed to read it.',
    bestFor: ['serial numbers', 'short instructions', 'labels on equipment'],
  },
  {
    type: 'sms',
    title: 'SMS',
    description: 'Starts a text message to your number, optionally with a prepared message.',
    bestFor: ['competitions and votes', 'appointment requests', 'opt-in keywords'],
  },
  {
    type: 'wifi',
    title: 'Wi-Fi',
    description: 'Joins a Wi-Fi network (WPA/WPA2, WEP or open) without typing the name or password.',
    bestFor: ['cafés and shops', 'guest networks', 'offices and holiday rentals'],
  },
  {
    type: 'vcard',
    title: 'vCard (contact)',
    description:
      "Saves your name, phone, e-mail, organisation, job title and website to the scanner's contacts.",
    bestFor: ['business cards', 'name badges', 'trade-show stands'],
  },
  {
    type: 'event',
    title: 'Event (calendar)',
    description:
      "Adds an event with its title, location, description, start and end to the scanner's calendar.",
    bestFor: ['conferences', 'webinars', 'weddings and parties'],
  },
  {
    type: 'phone',
    title: 'Phone',
    description: 'Lets people call a number with one tap.',
    note: 'There is no separate Phone tile: choose Text and enter the number as tel:+15551234567. Most scanner apps then offer to call it.',
    bestFor: ['support hotlines', 'taxi and delivery services', 'posters and flyers'],
  },
];

export const moreTypesNote =
  'Social, PDF, Video and Image link types are under More on the Create QR Code page. Each one encodes a link to your profile or file.';

export const featureSections: readonly FeatureSection[] = [
  {
    value: 'customisation',
    title: 'Customisation',
    summary: 'Make a code match your brand while keeping it easy to scan.',
    points: [
      {
        label: 'Templates',
        text: 'Eight ready-made designs: Classic, Blue Modern, Framed Business, Green Eco, Purple Creative, Red Alert, Orange Event and Minimalist. Applying one sets colours, style, error correction and frame in one go.',
      },
      {
        label: 'Colours',
        text: 'Pick the foreground and background from the palettes; the background can be transparent. Keep the code clearly darker than what is behind it.',
      },
      {
        label: 'Style',
        text: 'Square (the default), dots, rounded or classy.',
      },
      {
        label: 'Error correction',
        text: 'Low (7%), Medium (15%, the default), Quartile (25%) or High (30%): the share of the code that can be covered or damaged and still be read.',
      },
      {
        label: 'Logo',
        text: 'Upload a JPG, PNG or SVG of up to 5MB, or give its address, and set its size from 20 to 80. Keep it covering no more than 20% of the code.',
      },
      {
        label: 'Frame',
        text: 'Add a frame in a rounded, square or minimal style and your own colour, with a call-to-action: Scan Me, Learn More, Visit Us, Get Offer, Download App or Contact Us.',
      },
    ],
  },
  {
    value: 'analytics',
    title: 'Analytics and tracking',
    summary:
      'Every scan of a dynamic code is recorded, so you can see what works. Static codes are not tracked.',
    points: [
      {
        label: 'Totals and trend',
        text: 'Total scans, scans today, active codes and the daily trend for the last 7, 14, 30 or 90 days.',
      },
      {
        label: 'Devices',
        text: 'Scans split into Mobile, Tablet, Desktop and Bot.',
      },
      {
        label: 'Locations and time of day',
        text: 'Top locations and an hour-by-hour chart show where and when people scan.',
      },
      {
        label: 'Per-code history',
        text: "Stats on a code's card opens its own page: scans over time, unique locations and devices, device distribution and a scan history table.",
      },
      {
        label: 'Reports and exports',
        text: 'Under Reports & Export, choose a date range, a report type and a format: CSV, Excel, PDF or JSON.',
      },
    ],
  },
  {
    value: 'organisation',
    title: 'Organisation and management',
    summary: 'Keep many codes tidy and up to date from My QR Codes.',
    points: [
      {
        label: 'Folders',
        text: 'Create folders with New Folder. Deleting a folder moves its codes back to Root; the codes are kept.',
      },
      {
        label: 'Move',
        text: 'Move puts a code in any folder or back in Root; a checkmark shows where it is now.',
      },
      {
        label: 'Search and filter',
        text: 'Narrow the list with the All QR Codes, Dynamic and Static tabs and the folder chips.',
      },
      {
        label: 'Edit without reprinting',
        text: "Edit a dynamic code's name, content and design at any time. Codes already printed keep working and lead to the new content. Static codes cannot be edited: create a new one instead.",
      },
      {
        label: 'Delete',
        text: 'Delete removes the code together with all of its scan analytics. This cannot be undone.',
      },
      {
        label: 'Plans',
        text: `The Free plan allows ${FREE_PLAN_CODES} codes. ${pro}; ${premium}.`,
      },
    ],
  },
  {
    value: 'security',
    title: 'Security and privacy',
    summary: 'Your codes and their scans belong to you.',
    points: [
      {
        label: 'Owner-only analytics',
        text: 'The analytics of a code are visible only to its owner. Other users cannot see your codes, folders or scans.',
      },
      {
        label: 'Self-hosted',
        text: 'QR Creator runs on your own server: accounts, codes and scans stay in your own database.',
      },
      {
        label: 'Passwords',
        text: 'Passwords are stored only as argon2 hashes, never in plain text.',
      },
      {
        label: 'IP anonymisation',
        text: 'The server operator can turn on IP anonymisation, which stores scan addresses with the last part zeroed. Scan history always shows addresses masked.',
      },
    ],
  },
];

export const faqItems: readonly FaqItem[] = [
  {
    value: 'what-is-a-qr-code',
    question: 'What is a QR code?',
    paragraphs: [
      'A QR (Quick Response) code is a square barcode that phones read with their camera. It can hold a web address, a contact card, a Wi-Fi login, a calendar event or plain text, and opens it without any typing.',
    ],
  },
  {
    value: 'how-to-scan',
    question: 'How do I scan a QR code?',
    paragraphs: [
      "Open your phone's camera, point it at the code so the whole square is in view, then tap the link or notification that appears. Most current phones need no extra app; older ones may need a scanner app.",
      'To check one of your own codes in the browser, open the scan simulator (/scan-demo), pick the code under Your QR codes (or type its ID) and press Scan. It shows the type, the content and what a phone would do with it, without a camera.',
    ],
  },
  {
    value: 'dynamic-vs-static',
    question: 'What is the difference between dynamic and static QR codes?',
    paragraphs: [
      'A dynamic code encodes a short link to this server. When someone scans it, the server records the scan and forwards them to the current content, so you can edit the content later without reprinting and see its analytics. It needs the server to be reachable.',
      'A static code encodes the content itself. It cannot be edited and records no scans, but it works forever, even without the server.',
      'Use dynamic for printed material you may need to update; use static for content that never changes.',
    ],
  },
  {
    value: 'logo-guidelines',
    question: 'What are the guidelines for adding a logo?',
    paragraphs: [
      'A logo covers part of the pattern, so the code relies on error correction to stay readable.',
    ],
    points: [
      'Use a JPG, PNG or SVG file of up to 5MB.',
      "Keep the logo under 20% of the code's area.",
      'When a logo is set, error correction High (30%) is used.',
      'Test the code with a few phones before printing.',
    ],
  },
  {
    value: 'print-size',
    question: 'How big should I print my QR code?',
    paragraphs: [
      'At least 1cm × 1cm (0.4 inch). For scanning from further away, make the code roughly one tenth of the scanning distance: a poster read from 2 m away needs a code about 20 cm wide.',
      'Keep the quiet zone, the empty margin around the code, free of text and graphics, and print with strong contrast.',
    ],
  },
  {
    value: 'analytics-privacy',
    question: 'Who can see my scan analytics?',
    paragraphs: [
      'Only you, the owner of a code, can see its scans and analytics. Administrators manage accounts and subscriptions; the app does not show them your analytics.',
      'The server operator can also turn on IP anonymisation so scan addresses are stored with the last part zeroed.',
    ],
  },
  {
    value: 'bulk-creation',
    question: 'Can I create many QR codes at once?',
    paragraphs: [
      'Not yet: bulk creation is not available in this version. Create codes one by one with Create QR Code, and apply the same template to each so a series looks consistent.',
      `The Free plan allows ${FREE_PLAN_CODES} codes. ${pro}; ${premium}.`,
    ],
  },
  {
    value: 'download-formats',
    question: 'Which download formats are available?',
    paragraphs: [
      'PNG, SVG and PDF. PNG suits screens, websites, e-mails and slides; SVG and PDF stay sharp at any size, so use them for print.',
      "On a code's card in My QR Codes, Download saves a PNG and SVG and PDF sit right beside it. Files are named after the code: Cafe Menu downloads as cafe-menu.png.",
    ],
  },
];

// Pages that later issues build. Until then each shows its title and an honest notice.
import { ComingSoon } from '../../components/ComingSoon';

export const DashboardPage = () => (
  <ComingSoon
    title="Dashboard"
    description="Your totals, the last seven days of scans and your most scanned codes will appear here."
  />
);
export const CreatePage = () => (
  <ComingSoon
    title="Create QR Code"
    description="The QR code designer (types, templates, colours, logo and frame) is being built."
  />
);
export const MyQrCodesPage = () => (
  <ComingSoon
    title="My QR Codes"
    description="Your codes, folders, downloads and sharing will be listed here."
  />
);
export const EditQrPage = () => (
  <ComingSoon
    title="Edit QR Code"
    description="Editing the content and design of dynamic codes is being built."
  />
);
export const QrDetailsPage = () => (
  <ComingSoon title="QR Code Details" description="Per-code scan history and charts are being built." />
);
export const AnalyticsPage = () => (
  <ComingSoon
    title="Analytics"
    description="Scan trends, devices, locations, time of day and report exports are being built."
  />
);
export const ScanDemoPage = () => (
  <ComingSoon
    title="QR Code Scanner"
    description="Scanning a code by its ID to preview what a phone shows is being built."
  />
);
export const SettingsPage = () => (
  <ComingSoon
    title="Settings"
    description="Security, notification and appearance settings are being built."
  />
);
export const ProfilePage = () => (
  <ComingSoon title="Profile" description="Editing your name, e-mail address and password is being built." />
);
export const UpgradePage = () => (
  <ComingSoon
    title="Upgrade to Pro"
    description="Pro ($10/month, up to 100 codes) and Premium ($25/month, unlimited codes) plans will be offered here."
  />
);
export const AdminPage = () => (
  <ComingSoon title="Admin Dashboard" description="User and subscription management tools are being built." />
);
export const AdminUsersPage = () => (
  <ComingSoon title="User Management" description="Creating, editing and removing users is being built." />
);
export const AdminSubscriptionsPage = () => (
  <ComingSoon
    title="Subscriptions"
    description="Upgrading, extending and cancelling subscriptions is being built."
  />
);

// Pages that later issues build. Until then each shows its title and an honest notice.
import { ComingSoon } from '../../components/ComingSoon';

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

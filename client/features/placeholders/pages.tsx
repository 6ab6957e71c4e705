// Pages that later issues build. Until then each shows its title and an honest notice.
import { paidPlansLine } from '../../../src/plans';
import { ComingSoon } from '../../components/ComingSoon';

export const UpgradePage = () => (
  <ComingSoon title="Upgrade to Pro" description={`${paidPlansLine} plans will be offered here.`} />
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

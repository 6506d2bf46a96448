import { EmptyState, PageHeader, buttonClass } from "~/components/ui";

export function meta() {
  return [{ title: "Campaigns · Ads AI Manager" }];
}

export default function Campaigns() {
  return (
    <>
      <PageHeader title="Campaigns" description="Manage your Google Ads campaigns" />
      <EmptyState title="No Campaigns Yet">
        <p>Connect your Google Ads account to view and manage campaigns</p>
        {/* A plain link: the route redirects to Google, off-site. */}
        <a href="/api/v1/auth/google?returnTo=/campaigns" className={`${buttonClass} mt-6`}>
          Connect Google Ads
        </a>
      </EmptyState>
    </>
  );
}

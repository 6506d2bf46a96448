import { EmptyState, PageHeader } from "~/components/ui";

export function meta() {
  return [{ title: "History · Ads AI Manager" }];
}

const UPCOMING = [
  "Bid adjustments",
  "Keyword additions and removals",
  "Ad copy changes",
  "Budget modifications",
  "AI optimization actions",
];

export default function History() {
  return (
    <>
      <PageHeader title="Change History" description="Every change made to your campaigns" />
      <EmptyState title="No History Yet">
        <p>Changes to your campaigns will appear here, including:</p>
        <ul className="mt-3 list-inside list-disc text-left text-sm">
          {UPCOMING.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </EmptyState>
    </>
  );
}

import { useLoaderData } from "react-router";

// A page of about the dashboard's size: a loader returning a table of rows,
// rendered on the server and hydrated. No database, no session: the ceiling
// the framework itself sets on this machine.
export function loader() {
  const rows = Array.from({ length: 40 }, (_, i) => ({
    id: String(1000 + i),
    name: `Campaign ${i + 1}: Outdoor gear, tents and sleeping bags`,
    status: i % 3 === 0 ? "PAUSED" : "ENABLED",
    cost: (i * 123.45) % 5000,
    clicks: (i * 37) % 900,
    impressions: (i * 997) % 40000,
    conversions: (i * 7) % 60,
  }));
  return { rows };
}

export default function Home() {
  const loaderData = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Dashboard</h1>
      <table aria-label="Campaigns">
        <thead>
          <tr>
            <th>Name</th>
            <th>Status</th>
            <th>Cost</th>
            <th>Clicks</th>
            <th>Impressions</th>
            <th>Conversions</th>
          </tr>
        </thead>
        <tbody>
          {loaderData.rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name}</th>
              <td>{r.status}</td>
              <td>{r.cost.toFixed(2)}</td>
              <td>{r.clicks}</td>
              <td>{r.impressions}</td>
              <td>{r.conversions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

import { CHANGE_STATUS_LABEL, SET_STATUS_LABEL, formatPercentChange, type FieldDiff } from "~/lib/change-fields";

const TONE: Record<string, string> = {
  green: "bg-green-50 text-green-800 ring-green-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  gray: "bg-gray-100 text-gray-700 ring-gray-500/20",
  blue: "bg-blue-50 text-blue-800 ring-blue-600/20",
};

const CHANGE_TONE: Record<string, string> = {
  valid: "blue",
  applied: "green",
  invalid: "red",
  failed: "red",
  applying: "amber",
  pending: "gray",
  unknown: "amber",
};
const SET_TONE: Record<string, string> = {
  proposed: "gray",
  validated: "blue",
  invalid: "red",
  applying: "amber",
  applied: "green",
  partially_applied: "amber",
  failed: "red",
  discarded: "gray",
};

export function Pill({ tone, children }: { tone: string; children: string }) {
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE[tone] ?? TONE.gray}`}>
      {children}
    </span>
  );
}

export function ChangeStatusBadge({ status }: { status: string }) {
  return <Pill tone={CHANGE_TONE[status] ?? "gray"}>{CHANGE_STATUS_LABEL[status] ?? status}</Pill>;
}

export function SetStatusBadge({ status }: { status: string }) {
  return <Pill tone={SET_TONE[status] ?? "gray"}>{SET_STATUS_LABEL[status] ?? status}</Pill>;
}

/** "Status: Enabled → Paused" per field; large budget and bid moves are flagged in words, not only color. */
export function FieldDiffList({ fields, largeMove = false }: { fields: FieldDiff[]; largeMove?: boolean }) {
  if (fields.length === 0) return <span className="text-gray-500">—</span>;
  return (
    <ul className="space-y-0.5">
      {fields.map((f) => (
        <li key={f.field} className="text-gray-800">
          <span className="text-gray-500">{f.field}: </span>
          {f.before !== null && f.after !== null ? (
            <>
              <span className="line-through decoration-gray-400">{f.before}</span> <span aria-label="changes to">→</span>{" "}
              <span className="font-medium">{f.after}</span>
            </>
          ) : (
            <span className="font-medium">{f.after ?? f.before}</span>
          )}
          {f.percent !== null ? (
            <span className={`ml-2 text-xs font-semibold ${largeMove ? "rounded bg-amber-100 px-1 text-amber-900" : "text-gray-500"}`}>
              {formatPercentChange(f.percent)}
              {largeMove ? " · large change" : ""}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

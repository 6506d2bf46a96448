import { formatEnum } from "~/lib/format";

const STYLE: Record<string, string> = {
  ENABLED: "bg-green-50 text-green-800 ring-green-600/20",
  PAUSED: "bg-amber-50 text-amber-800 ring-amber-600/20",
  REMOVED: "bg-gray-100 text-gray-600 ring-gray-500/20",
};

/** ENABLED / PAUSED / REMOVED as Google Ads words them ("Enabled"), with a color cue that is never the only cue. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLE[status] ?? STYLE.REMOVED}`}>
      {formatEnum(status)}
    </span>
  );
}

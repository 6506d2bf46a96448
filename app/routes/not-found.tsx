import { data } from "react-router";

// Any unknown URL: a real 404, rendered by the root ErrorBoundary.
export function loader() {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export function action() {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}

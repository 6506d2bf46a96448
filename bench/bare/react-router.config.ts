import type { Config } from "@react-router/dev/config";

// The bench's reference: a bare React Router 7 app (SSR, one route, a loader).
export default { ssr: true } satisfies Config;

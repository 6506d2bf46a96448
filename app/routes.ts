import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

// Every URL of the product, in one place.
export default [
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  layout("routes/app-layout.tsx", [
    index("routes/home.tsx"),
    route("dashboard", "routes/dashboard.tsx"),
    route("campaigns", "routes/campaigns.tsx"),
    route("ai-optimizer", "routes/ai-optimizer.tsx"),
    route("ad-generator", "routes/ad-generator.tsx"),
    route("history", "routes/history.tsx"),
    route("settings", "routes/settings.tsx"),
  ]),
  ...prefix("api/v1", [
    route("auth/register", "routes/api/auth-register.ts"),
    route("auth/login", "routes/api/auth-login.ts"),
    route("auth/logout", "routes/api/auth-logout.ts"),
    route("auth/me", "routes/api/auth-me.ts"),
    route("auth/google", "routes/api/auth-google.ts"),
    route("auth/google/callback", "routes/api/auth-google-callback.ts"),
    route("accounts", "routes/api/accounts.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;

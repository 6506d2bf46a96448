import { createCookie, type Cookie } from "react-router";
import { getConfig, type AppConfig } from "../env.server";

/**
 * One of the app's own cookies: HttpOnly, SameSite=Lax, Secure when APP_URL is
 * https, signed with SESSION_SECRET. Made on first use, when the configuration
 * is read (not at import, before it exists), then kept.
 */
export function appCookie(name: string, options: { maxAge: number | ((config: AppConfig) => number); path?: string }): () => Cookie {
  let cookie: Cookie | undefined;
  return () => {
    const config = getConfig();
    cookie ??= createCookie(name, {
      httpOnly: true,
      sameSite: "lax",
      path: options.path ?? "/",
      secure: config.APP_URL.startsWith("https:"),
      secrets: [config.SESSION_SECRET],
      maxAge: typeof options.maxAge === "function" ? options.maxAge(config) : options.maxAge,
    });
    return cookie;
  };
}

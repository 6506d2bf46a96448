import { randomBytes } from "node:crypto";
import { escapeHtml } from "../http/util";
import { describeScope, isIdentityScope } from "./scopes";

/**
 * Server-rendered pages of the authorization endpoint. They work without
 * JavaScript (plain form POST), load nothing external, and carry their own CSP.
 */

export interface DemoUser {
  email: string;
  name: string;
  sub: string;
  picture?: string;
}

export interface RenderedPage {
  html: string;
  headers: Record<string, string>;
}

function pageHeaders(nonce: string, formTargets: string[]): Record<string, string> {
  // form-action must also allow the redirect target: browsers apply it to the redirect after the POST.
  const formAction = ["'self'", ...formTargets].join(" ");
  return {
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f0f4f9;font:14px/1.5 "Google Sans",Roboto,Arial,sans-serif;color:#1f1f1f}
main{max-width:1040px;margin:48px auto;background:#fff;border-radius:28px;padding:36px 40px;display:flex;flex-wrap:wrap;gap:24px 48px}
.col{flex:1 1 360px;min-width:0}
.brand{display:flex;align-items:center;gap:10px;font-size:14px;color:#444746}
h1{font-size:32px;line-height:40px;font-weight:400;margin:24px 0 16px}
.chip{display:inline-flex;align-items:center;gap:8px;border:1px solid #c4c7c5;border-radius:16px;padding:3px 12px 3px 3px;font-size:14px}
.avatar{width:24px;height:24px;border-radius:50%;background:#7b1fa2;color:#fff;display:inline-flex;align-items:center;justify-content:center;font-size:13px}
.who{color:#444746;margin:4px 0 0}
h2{font-size:16px;font-weight:500;margin:0 0 8px}
ul{list-style:none;margin:0;padding:0;border-top:1px solid #e3e3e3}
li{display:flex;gap:12px;align-items:flex-start;padding:12px 0;border-bottom:1px solid #e3e3e3}
li label{display:flex;gap:12px;align-items:flex-start;width:100%;cursor:pointer}
li input{width:18px;height:18px;margin:2px 0 0;accent-color:#0b57d0;flex:none}
.fixed{width:18px;height:18px;flex:none;color:#0b57d0;font-weight:700;text-align:center}
.scope-url{display:block;color:#5e5e5e;font-size:12px;word-break:break-all}
.trust{color:#444746;font-size:13px;margin:16px 0}
.buttons{display:flex;justify-content:flex-end;gap:12px;margin-top:24px}
button{font:500 14px "Google Sans",Roboto,Arial,sans-serif;border-radius:20px;padding:10px 24px;cursor:pointer;border:0}
.cancel{background:transparent;color:#0b57d0}
.allow{background:#0b57d0;color:#fff}
.note{width:100%;font-size:12px;color:#5e5e5e;border-top:1px solid #e3e3e3;padding-top:12px}
.err{color:#b3261e;font-weight:500}
code{font-family:"Roboto Mono",monospace;font-size:12px;word-break:break-all}
dl{font-size:12px;color:#444746}dt{font-weight:500}dd{margin:0 0 6px}
`;

const LOGO = `<svg width="20" height="20" viewBox="0 0 48 48" aria-hidden="true"><path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.6 13.3l7.9 6.1C12.4 13.7 17.7 9.5 24 9.5z"/><path fill="#4285F4" d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.7 6c4.5-4.2 6.6-10.3 6.6-17.4z"/><path fill="#FBBC05" d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C.9 16.6 0 20.2 0 24s.9 7.4 2.6 10.7l7.9-6.1z"/><path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.1 1.4-4.9 2.3-8.2 2.3-6.3 0-11.6-4.2-13.5-10l-7.9 6.1C6.6 42.6 14.6 48 24 48z"/></svg>`;

function layout(title: string, nonce: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
<p class="note">Local Google emulator for Ads AI Manager demo mode. This is not Google: no real account is involved.</p>
</main>
</body>
</html>
`;
}

/** "1234-abc.apps.googleusercontent.com" → "1234-abc": the part a person recognises. */
export function appDisplayName(clientId: string): string {
  return clientId.replace(/\.apps\.googleusercontent\.com$/, "");
}

export function renderConsentPage(opts: {
  user: DemoUser;
  clientId: string;
  scopes: string[];
  /** Every authorization parameter, echoed back in hidden fields so the POST needs no server-side session. */
  params: Record<string, string>;
  actionPath: string;
  redirectOrigin: string;
}): RenderedPage {
  const nonce = randomBytes(16).toString("base64");
  const app = escapeHtml(appDisplayName(opts.clientId));
  const hidden = Object.entries(opts.params)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("\n");
  const items = opts.scopes
    .map((scope) => {
      const text = escapeHtml(describeScope(scope));
      const url = scope === "openid" ? "" : `<span class="scope-url">${escapeHtml(scope)}</span>`;
      if (isIdentityScope(scope)) {
        return `<li><span class="fixed" aria-hidden="true">&#10003;</span><span>${text}${url}</span></li>`;
      }
      return `<li><label><input type="checkbox" name="granted_scope" value="${escapeHtml(scope)}" checked><span>${text}${url}</span></label></li>`;
    })
    .join("\n");
  const initial = escapeHtml((opts.user.name || opts.user.email).trim().charAt(0).toUpperCase());
  const body = `
<div class="col">
  <div class="brand">${LOGO}<span>Sign in with Google</span></div>
  <h1>${app} wants access to your Google Account</h1>
  <span class="chip"><span class="avatar">${initial}</span><span>${escapeHtml(opts.user.email)}</span></span>
  <p class="who">Signed in as ${escapeHtml(opts.user.name)}</p>
  <p class="trust">Client ID: <code>${escapeHtml(opts.clientId)}</code></p>
</div>
<div class="col">
  <form method="post" action="${escapeHtml(opts.actionPath)}">
    ${hidden}
    <h2>Select what ${app} can access</h2>
    <ul>
${items}
    </ul>
    <p class="trust">Make sure you trust ${app}. You may be sharing sensitive info with this site or app.
    You can always see or remove access in your Google Account.</p>
    <div class="buttons">
      <button type="submit" name="action" value="cancel" class="cancel">Cancel</button>
      <button type="submit" name="action" value="allow" class="allow">Allow</button>
    </div>
  </form>
</div>`;
  return {
    html: layout(`Sign in - Google Accounts`, nonce, body),
    headers: pageHeaders(nonce, opts.redirectOrigin ? [opts.redirectOrigin] : []),
  };
}

/** Google's "Access blocked: Authorization Error" page. Never redirects: the redirect_uri may be the problem. */
export function renderErrorPage(opts: { status: number; error: string; reason: string; user?: DemoUser; params: Record<string, string> }): RenderedPage {
  const nonce = randomBytes(16).toString("base64");
  const details = Object.entries(opts.params)
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd><code>${escapeHtml(v)}</code></dd>`)
    .join("");
  const body = `
<div class="col">
  <div class="brand">${LOGO}<span>Sign in with Google</span></div>
  <h1>Access blocked: Authorization Error</h1>
  ${opts.user ? `<span class="chip"><span class="avatar">${escapeHtml(opts.user.email.charAt(0).toUpperCase())}</span><span>${escapeHtml(opts.user.email)}</span></span>` : ""}
  <p>${escapeHtml(opts.reason)}</p>
  <p class="err">Error ${opts.status}: ${escapeHtml(opts.error)}</p>
</div>
<div class="col">
  <h2>Request details</h2>
  <dl>${details || "<dd>(no parameters)</dd>"}</dl>
</div>`;
  return { html: layout(`Error ${opts.status}: ${opts.error}`, nonce, body), headers: pageHeaders(nonce, []) };
}

import type { Insertable, Selectable, Updateable } from "kysely";

// Timestamps are ISO-8601 UTC strings: they sort and compare the same way in
// SQLite and PostgreSQL, and read clearly in either shell.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  active_customer_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** sha256 of the API access token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
}

export interface GoogleConnectionsTable {
  id: string;
  user_id: string;
  google_sub: string;
  google_email: string;
  /** AES-256-GCM, versioned; see crypto.server.ts. */
  refresh_token_enc: string;
  access_token_enc: string | null;
  access_token_expires_at: string | null;
  scopes: string;
  status: "active" | "reconnect_needed";
  status_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface AdsAccountsTable {
  user_id: string;
  customer_id: string;
  connection_id: string;
  name: string;
  currency_code: string;
  time_zone: string;
  manager: number;
  /** The manager through which this account is reached, sent as login-customer-id. */
  login_customer_id: string | null;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  google_connections: GoogleConnectionsTable;
  ads_accounts: AdsAccountsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type GoogleConnection = Selectable<GoogleConnectionsTable>;
export type AdsAccount = Selectable<AdsAccountsTable>;

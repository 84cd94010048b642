// Row types of every table. Booleans are stored as 0/1 integers and timestamps as
// `YYYY-MM-DD HH:MM:SS` GMT text in both dialects, so one query path serves SQLite and PostgreSQL.
import type { Generated } from "kysely";

export interface SitesTable {
  id: Generated<number>;
  name: string;
  domain: string;
  created_at_gmt: string;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string | null;
  password_hash: string | null;
  super_admin: number;
  created_at_gmt: string;
}

export interface MembershipsTable {
  site_id: number;
  user_id: number;
  role: string;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  label: string | null;
  hash: string;
  created_at_gmt: string;
  last_issued_at_gmt: string;
}

export interface FramesTable {
  id: string;
  site_id: number;
  slug: string;
  block: string;
  element: string | null;
  modifier: string | null;
  html: string;
  bytes: number;
  sha256: string;
  analysis_json: string;
  revision: Generated<number>;
  created_at_gmt: string;
  updated_at_gmt: string;
  updated_by: number;
}

export interface FrameBakesTable {
  frame_id: string;
  site_id: number;
  lang: string;
  html: string;
  bytes: number;
  report_json: string;
  baked_at_gmt: string;
}

export interface StaticCopiesTable {
  site_id: number;
  page_id: number;
  address: string;
  frame_id: string;
  html: string;
  bytes: number;
  sha256: string;
  written_at_gmt: string;
}

export interface Tables {
  frames: FramesTable;
  frame_bakes: FrameBakesTable;
  static_copies: StaticCopiesTable;
  sites: SitesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  tokens: TokensTable;
}

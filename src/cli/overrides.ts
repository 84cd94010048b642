// An environment's settings laid over settings.json (docs/cli.md, "Environments"): the folder holds
// one settings.json for every environment, and svc.json names what differs where (production's
// tagline). A push, a status and a pull with --env compare and send the file with the overrides
// laid over it, so the state of that target holds the overridden form; a pull writes the file
// back with the folder's own values of the overridden settings, so it never takes one
// environment's value into the file shared by all.
import { jsonFileText, jsonHash, type Json } from "./canonical.ts";
import type { Environment } from "./environment.ts";
import { SETTINGS_KEY } from "./layout.ts";
import type { LocalFolder } from "./local.ts";

type Rec = Record<string, Json>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The folder as a push to `environment` sends it: settings.json with its settings laid over (when the folder has one). */
export function overriddenFolder(folder: LocalFolder, environment: Environment | null): LocalFolder {
  const overrides = environment?.settings ?? {};
  const settings = folder.objects.get(SETTINGS_KEY);
  if (!settings || Object.keys(overrides).length === 0 || !isRecord(settings.value)) return folder;
  const value: Json = { ...settings.value, ...overrides };
  const objects = new Map(folder.objects);
  objects.set(SETTINGS_KEY, {
    ...settings,
    value,
    hash: jsonHash(value),
    bytes: new TextEncoder().encode(jsonFileText(value, [])),
  });
  return { ...folder, objects };
}

/**
 * settings.json as a pull writes it from the server's settings: each overridden setting keeps the
 * folder's own value (or stays out, when the file had none).
 */
export function settingsUnderOverrides(server: Json, file: Json | undefined, environment: Environment | null): Json {
  const overrides = environment?.settings ?? {};
  if (!isRecord(server) || Object.keys(overrides).length === 0) return server;
  const own = isRecord(file) ? file : {};
  const out: Rec = {};
  for (const [key, value] of Object.entries(server)) {
    if (!(key in overrides)) out[key] = value;
    else if (key in own) out[key] = own[key];
  }
  return out;
}

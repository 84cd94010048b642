// What a kind of the folder brings of its own (docs/cli.md, "The folder"): how the server's objects
// of it are read as files, how a planned change of one is written, how its file is checked before
// a push sends anything, and the order of its JSON file's top-level fields.
import type { Api } from "../api.ts";
import type { Json } from "../canonical.ts";
import type { SiteFacts } from "../files.ts";
import type { RemoteObject } from "../remote.ts";
import type { Change, Outcome, WriteContext } from "../write-types.ts";

export interface KindModule {
  /** The server's objects of the kind, keyed and hashed as their files. */
  read(api: Api, facts: SiteFacts): Promise<RemoteObject[]>;
  /** Carries out one planned create, update, rename or delete. */
  write(ctx: WriteContext, change: Change): Promise<Outcome>;
  /** Refuses a file that cannot be sent (an `invalid_file` CliError). */
  check(key: string, value: Json): void;
  /** Top-level fields of a pulled JSON file, in this order first. */
  order?: readonly string[];
  /** The text a pulled file is written with, when it is not JSON. */
  fileText?(object: RemoteObject): string;
}

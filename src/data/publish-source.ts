// What the publish engine reads of data (publish/contract.ts PublishSources.data): the items of a
// source through the content model's one resolver. A missing data set prints nothing.
import { ServiceError } from "../errors.ts";
import type { PublishSources } from "../publish/contract.ts";
import { resolveSource } from "./sources.ts";

export function dataPublishSource(publicPort: number): PublishSources["data"] {
  return {
    async items(db, site, source, { lang, pageId, addressing }) {
      const name = source.startsWith("data.") ? source.slice("data.".length) : source;
      try {
        const answer = await resolveSource({ db, publicPort, addressing }, site, { source: name, lang: lang ?? undefined, page: pageId });
        return answer.items;
      } catch (error) {
        if (error instanceof ServiceError) return error.code === "dataset_not_found" ? [] : undefined;
        throw error;
      }
    },
  };
}

// PATCH /pages/{ref} (docs/content-model.md, "Pages"): a stored page changed field by field.
import { fail } from "../errors.ts";
import type { SiteRow } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import { inputWarnings, mergeFields, PATCH_KEYS } from "./input.ts";
import { pageById } from "./queries.ts";
import { fieldsOf } from "./record.ts";
import { findPageByRef } from "./refs.ts";
import { placement } from "./placement.ts";
import { columnsOf, readChange } from "./page-change.ts";
import { updatePage } from "./page-rows.ts";
import { writeAndAnnounce, type PageWriteAnswer, type WriteOptions } from "./page-write.ts";

/**
 * PATCH /pages/{ref}: any field; `fields` merge (null removes a key); `frame` a ref or null.
 * `options.markup`: how the content and the fields given are stored (readChange).
 */
export async function patchPage(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: Record<string, unknown>,
  query: { lang?: unknown },
  options: WriteOptions & { markup: MarkupTrust },
): Promise<PageWriteAnswer> {
  const warnings = inputWarnings(body, PATCH_KEYS);
  if (!PATCH_KEYS.some((key) => Object.hasOwn(body, key) && key !== "create_missing_parents")) {
    throw fail("nothing_to_update", { allowed: PATCH_KEYS });
  }
  const state = await languageState(ctx.db, site.id);
  const refLang = checkLangIn(state, query.lang);
  const page = await findPageByRef(ctx.db, site.id, ref, { ...(refLang !== null ? { lang: refLang } : {}) });
  const input = await readChange(ctx, site, body, warnings, options.markup);
  if (input.title === "") throw fail("title_required", { field: "title" }, "The title cannot be emptied.");
  if (body.lang === null || body.lang === "") {
    // Taking a page's language away is allowed only while the site has no languages.
    if (state.active && page.lang !== "")
      throw fail(
        "invalid_field",
        { field: "lang", languages: state.codes },
        "While the site has languages, a page keeps one; name another language.",
      );
  }
  const lang = input.lang ?? (body.lang === null || body.lang === "" ? "" : undefined);

  return writeAndAnnounce(
    ctx,
    site,
    warnings,
    async (trx, now, region) => {
      const current = (await pageById(trx, site.id, page.id)) ?? page;
      const pageLang = lang ?? current.lang;
      const where = await placement(
        trx,
        site.id,
        input.state,
        pageLang,
        { parent: input.parent, url: input.url },
        input.createMissing,
        now,
      );
      const fields = input.fields === undefined ? undefined : mergeFields(fieldsOf(current), input.fields);
      const written = await updatePage(
        trx,
        site.id,
        current,
        { ...columnsOf(input), fields, placement: where, lang },
        now,
        warnings,
        region,
      );
      return { written, placed: where };
    },
    options,
  );
}

// A page's translations (docs/admin.md): a link to each, and for every other language of the site
// a button that makes one (a draft with the same title) and opens it.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { shownOf, type Shown } from "../errors.tsx";
import { hrefOf, navigate, onLink } from "../route.ts";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import type { EditedPage } from "./page-form.ts";

export function Translations(props: { texts: Texts; session: Session; siteId: number; page: EditedPage }) {
  const { texts, siteId, page } = props;
  const site = props.session.client.forSite(siteId);
  const [languages, setLanguages] = useState<string[]>([]);
  const [error, setError] = useState<Shown | null>(null);

  useEffect(() => {
    unwrap(site.GET("/languages"))
      .then((answer) => setLanguages(answer.languages.map((language) => language.code)))
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId]);
  if (languages.length === 0 && error === null) return null;

  const translate = async (lang: string) => {
    setError(null);
    try {
      const made = await unwrap(
        site.POST("/pages/language", { body: { page: page.id, lang, title: page.title, status: "draft" } }),
      );
      if (made.page) navigate({ siteId, screen: "pages", item: String(made.page.id) });
    } catch (failure) {
      setError(shownOf(failure, texts));
    }
  };
  return (
    <section aria-labelledby="translations-heading">
      <h2 id="translations-heading">{texts.translations}</h2>
      <p role="alert" class="error">
        {error?.message ?? ""}
      </p>
      <ul>
        {languages.map((lang) => {
          const id = page.translations[lang];
          if (id === page.id) return null;
          if (id !== undefined) {
            const to = { siteId, screen: "pages" as const, item: String(id) };
            return (
              <li key={lang}>
                <a href={hrefOf(to)} onClick={onLink(to)} hrefLang={lang}>
                  {lang}
                </a>
              </li>
            );
          }
          return (
            <li key={lang}>
              <button type="button" onClick={() => translate(lang)}>
                {texts.translateInto(lang)}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

// The Menus screen (docs/admin.md): each menu of the site a link named by its name.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, shownOf, type Shown } from "../errors.tsx";
import { hrefOf, onLink } from "../route.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";

export function MenuList(props: { texts: Texts; session: Session; siteId: number }) {
  const { texts, session, siteId } = props;
  const [menus, setMenus] = useState<Array<{ id: number; name: string; slug: string }> | null>(null);
  const [error, setError] = useState<Shown | null>(null);
  useEffect(() => {
    setMenus(null);
    unwrap(session.client.forSite(siteId).GET("/menus"))
      .then((answer) => setMenus(answer.menus))
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId]);
  return (
    <>
      <ScreenHeading>{texts.menus}</ScreenHeading>
      <p role="alert" class="error">
        {alertOf(error, [])}
      </p>
      {menus === null ? (
        <p>{texts.loading}</p>
      ) : menus.length === 0 ? (
        <p>{texts.noMenus}</p>
      ) : (
        <ul class="files">
          {menus.map((menu) => {
            const to = { siteId, screen: "menus" as const, item: menu.slug };
            return (
              <li key={menu.id}>
                <a href={hrefOf(to)} onClick={onLink(to)}>
                  {menu.name}
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

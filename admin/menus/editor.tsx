// A menu's editor (docs/admin.md): its items as a list, each with Move up and Move down (the
// keyboard's way to reorder), a field Page (the published pages by title) with Add item to append
// one; nothing is stored until Save.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, shownOf } from "../errors.tsx";
import { useAction } from "../action.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import type { Session } from "../session.ts";
import type { Texts } from "../texts.ts";
import { flatOf, moved, treeOf, type ItemNode } from "./tree.ts";

export function MenuEditor(props: { texts: Texts; session: Session; siteId: number; item: string }) {
  const { texts, session, siteId, item } = props;
  const { busy, error, setError, notice, setNotice, run } = useAction(texts);
  const site = session.client.forSite(siteId);
  const [name, setName] = useState("");
  const [tree, setTree] = useState<ItemNode[] | null>(null);
  const [pages, setPages] = useState<Array<{ id: number; title: string }>>([]);
  const [chosen, setChosen] = useState("");

  const load = async () => {
    const answer = await unwrap(site.GET("/menus/{ref}", { params: { path: { ref: item } } }));
    setName(answer.menu.name);
    setTree(treeOf(answer.items));
  };
  useEffect(() => {
    setError(null);
    setNotice("");
    load().catch((failure) => setError(shownOf(failure, texts)));
    unwrap(site.GET("/pages", { params: { query: { status: "publish", per_page: 500 } } }))
      .then((answer) => setPages(answer.pages))
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId, item]);

  const add = () => {
    const page = pages.find((candidate) => String(candidate.id) === chosen);
    if (!page || tree === null) return;
    setNotice("");
    setTree([...tree, { title: page.title, page: page.id, url: "", target: "", classes: "", children: [] }]);
  };
  const save = () =>
    run(async () => {
      if (tree === null) return "";
      await unwrap(site.PUT("/menus/{ref}/items", { params: { path: { ref: item } }, body: { items: flatOf(tree) } }));
      await load();
      return texts.saved;
    });

  const level = (nodes: ItemNode[], path: number[]) => (
    <ol class="menu-items">
      {nodes.map((node, index) => {
        const at = [...path, index];
        return (
          <li key={node.id ?? `new-${at.join(".")}`}>
            <span class="item-title">{node.title}</span>{" "}
            <button type="button" class="small" disabled={index === 0} onClick={() => setTree(moved(tree!, at, -1))}>
              {texts.moveUp}
            </button>{" "}
            <button
              type="button"
              class="small"
              disabled={index === nodes.length - 1}
              onClick={() => setTree(moved(tree!, at, 1))}
            >
              {texts.moveDown}
            </button>
            {node.children.length > 0 && level(node.children, at)}
          </li>
        );
      })}
    </ol>
  );

  return (
    <>
      <ScreenHeading>
        {texts.menus}: {name}
      </ScreenHeading>
      <p role="alert" class="error">
        {alertOf(error, [])}
      </p>
      <p role="status">{notice}</p>
      {tree === null ? <p>{texts.loading}</p> : tree.length === 0 ? <p>{texts.noItems}</p> : level(tree, [])}
      <div class="add-item">
        <label htmlFor="menu-page">{texts.page}</label>
        <select id="menu-page" value={chosen} onChange={(event) => setChosen(event.currentTarget.value)}>
          <option value="">{texts.choosePage}</option>
          {pages.map((page) => (
            <option key={page.id} value={String(page.id)}>
              {page.title}
            </option>
          ))}
        </select>
        <button type="button" onClick={add} disabled={chosen === ""}>
          {texts.addItem}
        </button>
      </div>
      <div class="actions">
        <button type="button" onClick={save} disabled={busy || tree === null}>
          {texts.save}
        </button>
      </div>
    </>
  );
}

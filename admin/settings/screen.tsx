// The Settings screen (docs/admin.md): the site's Name and Tagline with Save, for administrators.
// Settings are the administrators' to write (docs/roles.md): an editor sees them, read-only,
// without Save.
import { useEffect, useState } from "preact/hooks";
import { unwrap } from "../../src/client/index.ts";
import { alertOf, FieldError, shownOf } from "../errors.tsx";
import { useAction } from "../action.ts";
import { ScreenHeading } from "../screen-heading.tsx";
import { administers, type Session } from "../session.ts";
import type { Texts } from "../texts.ts";

const FIELDS = ["name", "tagline"] as const;

export function SettingsScreen(props: { texts: Texts; session: Session; siteId: number }) {
  const { texts, session, siteId } = props;
  const { busy, error, setError, notice, run } = useAction(texts);
  const site = session.client.forSite(siteId);
  const writes = administers(session, siteId);
  const [form, setForm] = useState<{ name: string; tagline: string } | null>(null);

  useEffect(() => {
    setForm(null);
    unwrap(site.GET("/settings"))
      .then((answer) => setForm({ name: answer.settings.name, tagline: answer.settings.tagline }))
      .catch((failure) => setError(shownOf(failure, texts)));
  }, [siteId]);

  const save = () =>
    run(async () => {
      if (form === null) return "";
      const done = await unwrap(site.PATCH("/settings", { body: form }));
      setForm({ name: done.settings.name, tagline: done.settings.tagline });
      return texts.saved;
    });

  const field = (name: (typeof FIELDS)[number], label: string) => (
    <>
      <label htmlFor={`settings-${name}`}>{label}</label>
      <input
        id={`settings-${name}`}
        value={form?.[name] ?? ""}
        readOnly={!writes}
        aria-describedby={`settings-${name}-error`}
        aria-invalid={error?.field === name}
        onInput={(event) => form && setForm({ ...form, [name]: event.currentTarget.value })}
      />
      <FieldError id={`settings-${name}-error`} field={name} shown={error} />
    </>
  );
  return (
    <>
      <ScreenHeading>{texts.settings}</ScreenHeading>
      <p role="alert" class="error">
        {alertOf(error, FIELDS)}
      </p>
      <p role="status">{notice}</p>
      {!writes && <p>{texts.readOnlySettings}</p>}
      {form === null ? (
        <p>{texts.loading}</p>
      ) : (
        <form
          class="editor"
          onSubmit={(event) => {
            event.preventDefault();
            if (writes) void save();
          }}
        >
          {field("name", texts.siteName)}
          {field("tagline", texts.tagline)}
          {writes && (
            <div class="actions">
              <button type="submit" disabled={busy}>
                {texts.save}
              </button>
            </div>
          )}
        </form>
      )}
    </>
  );
}

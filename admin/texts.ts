// Every text the admin shows, in English and German (docs/admin.md): one dictionary, so a screen
// never holds a string of its own and a missing translation fails the type check. The English
// names of fields, buttons and headings are the ones tests drive the admin by.

export type Language = "en" | "de";

export interface Texts {
  /** The document's title. */
  title: string;
  signInHeading: string;
  login: string;
  password: string;
  signIn: string;
  /** Shown in the alert when the service answers no error message of its own (unreachable). */
  unreachable: string;
  pages: string;
  signedInAs: (login: string) => string;
  // The frame around every screen
  site: string;
  navigation: string;
  signOut: string;
  loading: string;
  /** A call failed without an answer of the service's own. */
  failed: string;
  noSites: string;
  // Pages
  newPage: string;
  title_: string;
  slug: string;
  content: string;
  frame: string;
  noFrame: string;
  language: string;
  status: string;
  published: string;
  scheduled: string;
  draft: string;
  trash: string;
  save: string;
  saved: string;
  publish: string;
  moveToTrash: string;
  movedToTrash: string;
  undo: string;
  revisions: string;
  revision: (n: number) => string;
  restore: string;
  restored: (n: number) => string;
  translations: string;
  translateInto: (lang: string) => string;
  noPages: string;
  view: string;
  bold: string;
  italic: string;
  heading: string;
  list: string;
  formatting: string;
  format: string;
  formatHtml: string;
  formatMarkdown: string;
  markdownHint: string;
  date: string;
  /** Under the date: the time zone it is typed in, and what an empty one means. */
  dateHint: (timeZone: string) => string;
  dateIncomplete: string;
  tags: string;
  tagsHint: string;
  publishesFeed: string;
  viewFeed: string;
  schedule: string;
  unschedule: string;
  savedAsDraft: string;
  /** The notice of a write that published the page. */
  publishedNotice: string;
  /** A moment as the editor shows it, in the browser's time zone. */
  moment: (at: Date) => string;
  scheduledFor: (moment: string) => string;
  goesOut: (moment: string) => string;
  // Media
  media: string;
  upload: string;
  uploading: (name: string) => string;
  noMedia: string;
  kilobytes: (bytes: number) => string;
  altText: string;
  usedBy: string;
  notUsed: string;
  usedInFrame: (slug: string) => string;
  usedOnPage: (path: string) => string;
  // Menus
  menus: string;
  noMenus: string;
  noItems: string;
  moveUp: string;
  moveDown: string;
  page: string;
  choosePage: string;
  addItem: string;
  // History
  history: string;
  noChanges: string;
  when: string;
  what: string;
  changedFields: string;
  actions: string;
  compare: string;
  comparing: (from: number, to: number) => string;
  kindName: (kind: string) => string;
  // Frames
  frames: string;
  noFrames: string;
  pagesOnFrame: string;
  updated: string;
  html: string;
  editorFailed: string;
  readOnlyFrame: string;
  warnings: string;
  lineColumn: (line: number, column: number) => string;
  pagesToChange: string;
  pagesChanged: string;
  preview: string;
  previewPage: string;
  noPageToPreview: string;
  // Settings
  settings: string;
  siteName: string;
  tagline: string;
  readOnlySettings: string;
}

const en: Texts = {
  title: "Admin",
  signInHeading: "Sign in",
  login: "Login",
  password: "Password",
  signIn: "Sign in",
  unreachable: "The service could not be reached. Check the connection and try again.",
  pages: "Pages",
  signedInAs: (login) => `Signed in as ${login}`,
  site: "Site",
  navigation: "Admin",
  signOut: "Sign out",
  loading: "Loading…",
  failed: "The call failed without an answer from the service. Check the connection and try again.",
  noSites: "You hold no role on any site yet. Ask an administrator to add you to one.",
  newPage: "New page",
  title_: "Title",
  slug: "Slug",
  content: "Content",
  frame: "Frame",
  noFrame: "(no frame)",
  language: "Language",
  status: "Status",
  published: "Published",
  scheduled: "Scheduled",
  draft: "Draft",
  trash: "Trash",
  save: "Save",
  saved: "Saved.",
  publish: "Publish",
  moveToTrash: "Move to trash",
  movedToTrash: "Moved to the trash.",
  undo: "Undo",
  revisions: "Revisions",
  revision: (n) => `Revision ${n}`,
  restore: "Restore",
  restored: (n) => `Revision ${n} restored as a new revision.`,
  translations: "Translations",
  translateInto: (lang) => `Translate into ${lang}`,
  noPages: "No pages yet.",
  view: "View",
  bold: "Bold",
  italic: "Italic",
  heading: "Heading",
  list: "List",
  formatting: "Formatting",
  format: "Format",
  formatHtml: "HTML (rich text)",
  formatMarkdown: "Markdown",
  markdownHint:
    "Markdown with GitHub's tables, task lists (- [ ]) and strikethrough. [text](page:slug) links to a page, ![alt](media:slug) shows a file.",
  date: "Date",
  dateHint: (timeZone) =>
    `In your time zone, ${timeZone}. Empty: the page is dated when it is first published. A date ahead schedules it.`,
  dateIncomplete: "The date is incomplete: fill in the day, month, year and time, or clear the field.",
  tags: "Tags",
  tagsHint: "Separated by commas.",
  publishesFeed: "Publishes a feed (feed.xml)",
  viewFeed: "View feed",
  schedule: "Schedule",
  unschedule: "Unschedule",
  savedAsDraft: "Saved as a draft.",
  publishedNotice: "Published.",
  moment: (at) => new Intl.DateTimeFormat("en", { dateStyle: "long", timeStyle: "short", hourCycle: "h23" }).format(at),
  scheduledFor: (moment) => `Scheduled for ${moment}.`,
  goesOut: (moment) => `goes out ${moment}`,
  media: "Media",
  upload: "Upload",
  uploading: (name) => `Uploading ${name}`,
  noMedia: "No files yet.",
  kilobytes: (bytes) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("en")} KB`,
  altText: "Alt text",
  usedBy: "Where it is used",
  notUsed: "Not used by any frame or page yet.",
  usedInFrame: (slug) => `Frame ${slug}`,
  usedOnPage: (path) => `Page ${path}`,
  menus: "Menus",
  noMenus: "No menus yet.",
  noItems: "No items yet.",
  moveUp: "Move up",
  moveDown: "Move down",
  page: "Page",
  choosePage: "(choose a page)",
  addItem: "Add item",
  history: "History",
  noChanges: "No changes yet.",
  when: "When (UTC)",
  what: "What",
  changedFields: "Changed",
  actions: "Actions",
  compare: "Compare",
  comparing: (from, to) => `Revision ${from} (left) beside revision ${to} (right); removed and added lines are marked.`,
  kindName: (kind) =>
    ({ frames: "Frame", pages: "Page", menus: "Menu", data: "Data set", styles: "Stylesheet", sidebars: "Sidebar" })[
      kind
    ] ?? kind,
  frames: "Frames",
  noFrames: "No frames yet.",
  pagesOnFrame: "Pages on this frame",
  updated: "Updated",
  html: "HTML",
  editorFailed: "The code editor could not be loaded. Reload the page to try again.",
  readOnlyFrame: "Frames are written by the site's administrators: you can read this one, not change it.",
  warnings: "Warnings",
  lineColumn: (line, column) => `Line ${line}, column ${column}`,
  pagesToChange: "Saving changes these pages",
  pagesChanged: "Pages changed",
  preview: "Preview",
  previewPage: "Page shown",
  noPageToPreview: "The site has no page to show this frame on yet.",
  settings: "Settings",
  siteName: "Site name",
  tagline: "Tagline",
  readOnlySettings: "Settings are the site administrators' to change; you can read them here.",
};

const de: Texts = {
  title: "Verwaltung",
  signInHeading: "Anmelden",
  login: "Anmeldename",
  password: "Passwort",
  signIn: "Anmelden",
  unreachable: "Der Dienst ist nicht erreichbar. Bitte die Verbindung prüfen und es erneut versuchen.",
  pages: "Seiten",
  signedInAs: (login) => `Angemeldet als ${login}`,
  site: "Website",
  navigation: "Verwaltung",
  signOut: "Abmelden",
  loading: "Wird geladen …",
  failed: "Der Aufruf ist ohne Antwort des Dienstes gescheitert. Bitte die Verbindung prüfen und es erneut versuchen.",
  noSites:
    "Sie haben noch auf keiner Website eine Rolle. Bitten Sie eine Administratorin oder einen Administrator darum.",
  newPage: "Neue Seite",
  title_: "Titel",
  slug: "Kurzname",
  content: "Inhalt",
  frame: "Rahmen",
  noFrame: "(kein Rahmen)",
  language: "Sprache",
  status: "Status",
  published: "Veröffentlicht",
  scheduled: "Geplant",
  draft: "Entwurf",
  trash: "Papierkorb",
  save: "Speichern",
  saved: "Gespeichert.",
  publish: "Veröffentlichen",
  moveToTrash: "In den Papierkorb",
  movedToTrash: "In den Papierkorb verschoben.",
  undo: "Rückgängig",
  revisions: "Versionen",
  revision: (n) => `Version ${n}`,
  restore: "Wiederherstellen",
  restored: (n) => `Version ${n} als neue Version wiederhergestellt.`,
  translations: "Übersetzungen",
  translateInto: (lang) => `Übersetzen in ${lang}`,
  noPages: "Noch keine Seiten.",
  view: "Ansehen",
  bold: "Fett",
  italic: "Kursiv",
  heading: "Überschrift",
  list: "Liste",
  formatting: "Formatierung",
  format: "Format",
  formatHtml: "HTML (formatierter Text)",
  formatMarkdown: "Markdown",
  markdownHint:
    "Markdown mit den Tabellen, Aufgabenlisten (- [ ]) und Durchstreichungen von GitHub. [Text](page:kurzname) verlinkt eine Seite, ![Alternativtext](media:kurzname) zeigt eine Datei.",
  date: "Datum",
  dateHint: (timeZone) =>
    `In Ihrer Zeitzone, ${timeZone}. Leer: Die Seite erhält das Datum ihrer ersten Veröffentlichung. Ein künftiges Datum plant sie ein.`,
  dateIncomplete: "Das Datum ist unvollständig: Bitte Tag, Monat, Jahr und Uhrzeit ausfüllen oder das Feld leeren.",
  tags: "Schlagwörter",
  tagsHint: "Durch Kommas getrennt.",
  publishesFeed: "Veröffentlicht einen Feed (feed.xml)",
  viewFeed: "Feed ansehen",
  schedule: "Einplanen",
  unschedule: "Nicht mehr einplanen",
  savedAsDraft: "Als Entwurf gespeichert.",
  publishedNotice: "Veröffentlicht.",
  moment: (at) => new Intl.DateTimeFormat("de", { dateStyle: "long", timeStyle: "short", hourCycle: "h23" }).format(at),
  scheduledFor: (moment) => `Geplant für ${moment}.`,
  goesOut: (moment) => `erscheint am ${moment}`,
  media: "Medien",
  upload: "Hochladen",
  uploading: (name) => `${name} wird hochgeladen`,
  noMedia: "Noch keine Dateien.",
  kilobytes: (bytes) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("de")} kB`,
  altText: "Alternativtext",
  usedBy: "Verwendet in",
  notUsed: "Noch von keinem Rahmen und keiner Seite verwendet.",
  usedInFrame: (slug) => `Rahmen ${slug}`,
  usedOnPage: (path) => `Seite ${path}`,
  menus: "Menüs",
  noMenus: "Noch keine Menüs.",
  noItems: "Noch keine Einträge.",
  moveUp: "Nach oben",
  moveDown: "Nach unten",
  page: "Seite",
  choosePage: "(Seite wählen)",
  addItem: "Eintrag hinzufügen",
  history: "Verlauf",
  noChanges: "Noch keine Änderungen.",
  when: "Wann (UTC)",
  what: "Was",
  changedFields: "Geändert",
  actions: "Aktionen",
  compare: "Vergleichen",
  comparing: (from, to) =>
    `Version ${from} (links) neben Version ${to} (rechts); entfernte und hinzugefügte Zeilen sind markiert.`,
  kindName: (kind) =>
    ({
      frames: "Rahmen",
      pages: "Seite",
      menus: "Menü",
      data: "Datensatz",
      styles: "Stylesheet",
      sidebars: "Seitenleiste",
    })[kind] ?? kind,
  frames: "Rahmen",
  noFrames: "Noch keine Rahmen.",
  pagesOnFrame: "Seiten mit diesem Rahmen",
  updated: "Geändert",
  html: "HTML",
  editorFailed: "Der Code-Editor konnte nicht geladen werden. Bitte die Seite neu laden.",
  readOnlyFrame:
    "Rahmen schreiben die Administratorinnen und Administratoren der Website: Sie können diesen lesen, nicht ändern.",
  warnings: "Warnungen",
  lineColumn: (line, column) => `Zeile ${line}, Spalte ${column}`,
  pagesToChange: "Speichern ändert diese Seiten",
  pagesChanged: "Geänderte Seiten",
  preview: "Vorschau",
  previewPage: "Gezeigte Seite",
  noPageToPreview: "Die Website hat noch keine Seite, auf der dieser Rahmen gezeigt werden kann.",
  settings: "Einstellungen",
  siteName: "Name der Website",
  tagline: "Untertitel",
  readOnlySettings:
    "Die Einstellungen ändern die Administratorinnen und Administratoren der Website; hier können Sie sie lesen.",
};

const DICTIONARY: Readonly<Record<Language, Texts>> = { en, de };

/** German when the browser's first language we have is German, else English. */
export function chooseLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split("-")[0];
    if (primary === "de" || primary === "en") return primary;
  }
  return "en";
}

export function textsFor(language: Language): Texts {
  return DICTIONARY[language];
}

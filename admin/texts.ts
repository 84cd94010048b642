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
  /** Under the Pages heading until that screen is built. */
  signedInAs: (login: string) => string;
}

const en: Texts = {
  title: "Admin",
  signInHeading: "Sign in",
  login: "Login",
  password: "Password",
  signIn: "Sign in",
  unreachable: "The service could not be reached. Check the connection and try again.",
  pages: "Pages",
  signedInAs: (login) => `Signed in as ${login}.`,
};

const de: Texts = {
  title: "Verwaltung",
  signInHeading: "Anmelden",
  login: "Anmeldename",
  password: "Passwort",
  signIn: "Anmelden",
  unreachable: "Der Dienst ist nicht erreichbar. Bitte die Verbindung prüfen und es erneut versuchen.",
  pages: "Seiten",
  signedInAs: (login) => `Angemeldet als ${login}.`,
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

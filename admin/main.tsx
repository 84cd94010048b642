// The admin's entry (docs/admin.md), loaded by index.html as an ES module: the language the
// browser prefers (German or English), then the app in #app. Its styles are admin.css, which the
// build bundles into a stylesheet of its own (the admin writes no inline script, which its CSP refuses).
import { render } from "preact";
import { App } from "./app.tsx";
import { chooseLanguage, textsFor } from "./texts.ts";
import "./admin.css";

const language = chooseLanguage(navigator.languages);
const texts = textsFor(language);
document.documentElement.lang = language;
document.title = texts.title;
const root = document.getElementById("app");
if (root) render(<App texts={texts} />, root);

// Sending a form's notification e-mail (docs/forms.md, "Notifications"): nodemailer over the SMTP
// server of SVC_SMTP_URL (`smtp://` with STARTTLS when the server offers it, `smtps://` for TLS from
// the first byte), from SVC_MAIL_FROM. A failure says whether trying again can help, and its text
// never holds the URL's password: it is kept in `form_notifications.last_error` and logged.
// nodemailer is loaded at the first message, not at start: it loads node:https and a dozen modules
// a start without mail never needs (test/process/startup.test.ts, "what a start loads").
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport/index.js";
import type { FormMessage } from "./notify-queue.ts";

export interface Mailer {
  /** Sends the message; throws a MailFailure when the server did not take it. */
  send(message: FormMessage): Promise<void>;
  close(): void;
}

export class MailFailure extends Error {
  constructor(
    message: string,
    /** The server refused this message for good (a 5xx to its sender, recipients or content): trying again cannot help. */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** A server that does not answer within these is down for this attempt (nodemailer's own wait up to 10 minutes). */
export const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/** The most of a failure's text kept. */
const ERROR_CHARS = 500;

interface SmtpError {
  message?: unknown;
  code?: unknown;
  responseCode?: unknown;
}

/** The URL's password as written and as decoded: what a failure's text must never show. */
function secretsOf(url: string): string[] {
  const password = new URL(url).password;
  if (password === "") return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // kept as written
  }
  return [...new Set([password, decoded])];
}

export function failureOf(error: unknown, secrets: readonly string[]): MailFailure {
  const found = (typeof error === "object" && error !== null ? error : {}) as SmtpError;
  const code = typeof found.code === "string" ? found.code : null;
  let text = `${code ? `${code}: ` : ""}${typeof found.message === "string" ? found.message : String(error)}`;
  for (const secret of secrets) text = text.split(secret).join("***");
  const status = typeof found.responseCode === "number" ? found.responseCode : 0;
  // A refused sign-in (EAUTH) or a server's other 5xx is the operator's to fix: the message waits.
  const permanent = status >= 500 && status < 600 && (code === "EENVELOPE" || code === "EMESSAGE");
  return new MailFailure(text.slice(0, ERROR_CHARS), permanent);
}

export function smtpMailer(url: string, from: string): Mailer {
  const options: SMTPTransport.Options = { url, ...SMTP_TIMEOUTS_MS, logger: false, debug: false };
  let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | null = null;
  const secrets = secretsOf(url);
  return {
    async send(message) {
      transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(options));
      try {
        await (await transport).sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.replyTo ? { replyTo: message.replyTo } : {}),
          // Sent by a program (RFC 3834): vacation responders do not answer it.
          headers: { "Auto-Submitted": "auto-generated" },
        });
      } catch (error) {
        throw failureOf(error, secrets);
      }
    },
    close() {
      void transport?.then((made) => made.close());
    },
  };
}

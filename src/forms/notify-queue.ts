// The e-mails a submission owes (docs/forms.md "Notifications"): queued in the submission's own
// transaction and sent apart from the visitor's answer by the notification worker, which retries a
// message while the SMTP server is down. A row is the message as it will be sent.
import { gmt } from "../clock.ts";
import type { Db } from "../store/database.ts";

export interface FormMessage {
  to: string[];
  subject: string;
  text: string;
  /** The visitor's e-mail address when the form asked for one, so a reply reaches them. */
  replyTo?: string;
}

export async function queueNotification(
  db: Db,
  siteId: number,
  form: string,
  message: FormMessage,
  now: number,
): Promise<void> {
  await db
    .insertInto("form_notifications")
    .values({ site_id: siteId, form, message_json: JSON.stringify(message), next_at_gmt: gmt(now) })
    .execute();
}

export function messageOf(json: string): FormMessage {
  return JSON.parse(json) as FormMessage;
}

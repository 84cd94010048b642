// A real SMTP server on 127.0.0.1 for tests (the `smtp-server` package): it keeps every message it
// accepts, with its envelope and headers. STARTTLS is off on a plain server (nodemailer would
// otherwise upgrade and refuse the package's self-signed certificate); `secure: true` speaks TLS
// from the first byte with that certificate. Messages are read as a test sends them: ASCII text,
// lines under 76 characters, so the body arrives as written (7bit) and only headers are unfolded.
import { once } from "node:events";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** Header names in lower case; a folded header unfolded. */
  headers: Map<string, string>;
  text: string;
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  port?: number;
  secure?: boolean;
  /** Accept this login only (AUTH over plain text allowed: it is a test on the loopback). */
  login?: { user: string; pass: string };
  /** Refuse these recipients with 550. */
  refuse?: string[];
}

function readMail(raw: string, envelope: ReceivedMail["envelope"]): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { envelope, headers, text: raw.slice(split + 4).replace(/\r\n$/, "") };
}

export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiting: Array<() => void> = [];
  const config: SMTPServerOptions = {
    secure: options.secure ?? false,
    disabledCommands: options.secure ? [] : ["STARTTLS"],
    authOptional: options.login === undefined,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, done) {
      const login = options.login;
      if (login && auth.username === login.user && auth.password === login.pass)
        return done(null, { user: login.user });
      const refusal = Object.assign(new Error("Authentication failed"), { responseCode: 535 });
      done(refusal);
    },
    onRcptTo(address, _session, done) {
      if (options.refuse?.includes(address.address))
        return done(Object.assign(new Error("No such user here"), { responseCode: 550 }));
      done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        };
        received.push(readMail(Buffer.concat(chunks).toString("utf8"), envelope));
        for (const wake of waiting.splice(0)) wake();
        done();
      });
    },
  };
  const server = new SMTPServer(config);
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server.server, "listening");
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`${received.length} of ${count} messages arrived`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 100).unref();
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

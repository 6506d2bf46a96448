import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A minimal SMTP server on 127.0.0.1 for tests (RFC 5321's happy path:
 * EHLO/HELO, MAIL, RCPT, DATA, QUIT; no TLS, no auth): what the product's
 * mailer really sends over the wire, collected as raw messages.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/** `refuse`: while it returns true, every mail is refused with a temporary failure (451), as a mail server in trouble does. */
export async function startSmtpServer(opts: { refuse?: () => boolean } = {}): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = net.createServer((socket) => {
    let buffer = "";
    let current: ReceivedMail = { from: "", to: [], data: "" };
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 localhost test SMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          mails.push(current);
          current = { from: "", to: [], data: "" };
          inData = false;
          reply("250 OK: queued");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") socket.write("250-localhost\r\n250 8BITMIME\r\n");
        else if (verb === "HELO") reply("250 localhost");
        else if (verb === "MAIL" && opts.refuse?.()) reply("451 4.3.0 Mail server temporarily unavailable");
        else if (verb === "MAIL") {
          current.from = /<(.*)>/.exec(line)?.[1] ?? "";
          reply("250 OK");
        } else if (verb === "RCPT") {
          current.to.push(/<(.*)>/.exec(line)?.[1] ?? "");
          reply("250 OK");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          reply("221 Bye");
          socket.end();
        } else reply("250 OK");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

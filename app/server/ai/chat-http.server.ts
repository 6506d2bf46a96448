import { consumeStream, createUIMessageStreamResponse } from "ai";
import type { SessionContext } from "../auth/session.server";
import { userFacingError } from "../http/errors.server";
import { activeAccountOf } from "../account-access.server";
import { startTurn, type TurnInput } from "./chat.server";

// The browser's streaming endpoint for the chat (useChat's transport). The
// client sends only its newest question (or "retry"); history, tools and the
// account come from the server and the session, never from the request. The
// body is checked by startTurn, with the same schema as the JSON API's.

const text = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

export async function streamChatTurn(request: Request, session: SessionContext | null): Promise<Response> {
  if (request.method !== "POST") return text(405, "Method not allowed: this address takes a POSTed question", { Allow: "POST" });
  if (!session) return text(401, "Your session has ended; sign in again.");
  const account = await activeAccountOf(session.user);
  if (!account) return text(409, "Connect a Google Ads account first.");
  let body: TurnInput;
  try {
    body = JSON.parse(await request.text()) as TurnInput;
  } catch {
    return text(400, "The request could not be read; reload the page.");
  }
  try {
    const turn = await startTurn({ userId: session.user.id, account, signal: request.signal }, body);
    return createUIMessageStreamResponse({
      stream: turn.stream,
      // no-transform: compression must not buffer the tokens; they are shown as they come.
      headers: { "Cache-Control": "no-cache, no-transform", "X-Chat-Id": turn.chat.id },
      // Reads a copy to the end even if the browser goes away, so the answer is stored.
      consumeSseStream: ({ stream }) => consumeStream({ stream }),
    });
  } catch (error) {
    const failure = userFacingError(error);
    if (failure) return text(failure.status, failure.detail, failure.headers);
    throw error;
  }
}

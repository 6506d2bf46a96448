import { useEffect, useRef, useState } from "react";
import { CHAT_REPLY_DELAY_MS, CONNECT_FIRST_REPLY, isBlank, type ChatMessage } from "~/lib/chat";
import { useHydrated } from "~/lib/use-hydrated";
import { Bubble, Composer, ComposerError, Conversation, ThinkingBubble, useScrollToEnd } from "./chat-layout";

/**
 * The chat while no Google Ads account is connected: the seed's behaviour,
 * kept exactly. A local, fixed reply after about a second, no server call;
 * without JavaScript the form posts and the page's action answers the same.
 */
export function OfflineChat({ initialMessages, error }: { initialMessages: ChatMessage[]; error: string | null }) {
  const hydrated = useHydrated();
  const [messages, setMessages] = useState<ChatMessage[]>(initialMessages);
  const [input, setInput] = useState("");
  const [thinking, setThinking] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const endRef = useScrollToEnd(messages, thinking);

  useEffect(() => () => clearTimeout(timer.current), []);

  function send(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (thinking || isBlank(input)) return;
    setMessages((prev) => [...prev, { role: "user", content: input.trim() }]);
    setInput("");
    setThinking(true);
    // Seed behaviour while no account is connected: a local, fixed reply after ~1 s.
    timer.current = setTimeout(() => {
      setMessages((prev) => [...prev, { role: "assistant", content: CONNECT_FIRST_REPLY }]);
      setThinking(false);
    }, CHAT_REPLY_DELAY_MS);
  }

  return (
    <>
      <Conversation empty={messages.length === 0 && !thinking} endRef={endRef}>
        {messages.map((m, i) => (
          <Bubble key={i} role={m.role}>
            {m.content}
          </Bubble>
        ))}
        {thinking ? <ThinkingBubble /> : null}
      </Conversation>
      <ComposerError id="chat-message-error" message={error} />
      <Composer
        value={input}
        onValueChange={setInput}
        onSubmit={send}
        sendDisabled={hydrated && (thinking || isBlank(input))}
        errorId={error ? "chat-message-error" : undefined}
        hidden={<input type="hidden" name="history" value={JSON.stringify(messages)} />}
      />
    </>
  );
}

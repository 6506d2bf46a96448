import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { CHAT_REPLY_DELAY_MS, CONNECT_FIRST_REPLY, isBlank, MAX_CHAT_MESSAGE_LENGTH, type ChatMessage } from "~/lib/chat";
import { useHydrated } from "~/lib/use-hydrated";

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
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [messages, thinking]);

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
      <section
        aria-label="Conversation"
        className="flex-1 overflow-y-auto rounded-xl border border-gray-200 bg-white p-6 shadow-sm"
      >
        {messages.length === 0 && !thinking ? (
          <div className="flex h-full flex-col items-center justify-center text-center">
            <h2 className="text-lg font-semibold text-gray-900">AI Assistant Ready</h2>
            <p className="mt-2 max-w-md text-gray-600">
              Ask about your campaigns' performance, wasted spend, budgets or keywords.
            </p>
          </div>
        ) : (
          <ol className="space-y-4">
            {messages.map((m, i) => (
              <li key={i} className={`flex ${m.role === "user" ? "justify-end" : "justify-start"}`} data-role={m.role}>
                <div
                  className={`max-w-[75%] whitespace-pre-wrap rounded-2xl px-4 py-2.5 text-sm ${
                    m.role === "user" ? "bg-blue-600 text-white" : "bg-gray-100 text-gray-900"
                  }`}
                >
                  <span className="sr-only">{m.role === "user" ? "You: " : "Assistant: "}</span>
                  {m.content}
                </div>
              </li>
            ))}
            {thinking ? (
              <li className="flex justify-start" aria-live="polite">
                <div className="rounded-2xl bg-gray-100 px-4 py-2.5 text-sm italic text-gray-600">AI is thinking...</div>
              </li>
            ) : null}
          </ol>
        )}
        <div ref={endRef} />
      </section>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      ) : null}
      <Form method="post" onSubmit={send} className="mt-4 flex gap-3">
        <input type="hidden" name="history" value={JSON.stringify(messages)} />
        <label htmlFor="chat-message" className="sr-only">
          Message
        </label>
        <input
          id="chat-message"
          name="message"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="Ask about your campaigns..."
          autoComplete="off"
          required
          pattern=".*\S.*"
          maxLength={MAX_CHAT_MESSAGE_LENGTH}
          className="flex-1 rounded-lg border border-gray-300 px-4 py-2.5 shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500"
        />
        <button
          type="submit"
          disabled={hydrated && (thinking || isBlank(input))}
          className="rounded-lg bg-blue-600 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Send
        </button>
      </Form>
    </>
  );
}

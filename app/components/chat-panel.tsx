import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useMemo, useState } from "react";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { isBlank } from "~/lib/chat";
import { formatDateTime } from "~/lib/format";
import { optimizerHref } from "~/lib/optimizer-url";
import { useHydrated } from "~/lib/use-hydrated";
import { Composer, ComposerError, Conversation, ThinkingBubble, useScrollToEnd } from "./chat-layout";
import { MessageView, type AssistantMessage } from "./chat-message";

export interface ChatListItem {
  id: string;
  title: string;
  updatedAt: string;
}

export interface ChatPanelProps {
  chatId: string;
  /** True once the chat has stored messages (so its address is shareable). */
  saved: boolean;
  initialMessages: AssistantMessage[];
  chats: ChatListItem[];
  accountName: string;
  /** The account's time zone, for the past chats' times (as every other screen shows times). */
  timeZone: string;
  /** "openai-compatible:qwen3:8b" or null for the built-in analyst. */
  model: string | null;
  /** From the no-JavaScript form post: an error to show by the field, and the text to keep in it. */
  formError?: string | null;
  formMessage?: string;
}

/**
 * The assistant's chat. With JavaScript, answers stream in token by token
 * through useChat (POST /ai-optimizer/chat); without it, the same form posts
 * to the page and the server renders the whole answer. The server keeps the
 * history: the browser sends only its newest question.
 */
export function ChatPanel(props: ChatPanelProps) {
  const { chatId, initialMessages, chats, model, accountName } = props;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  // The recommendations list beside the chat stays as it is when the chat changes.
  const { search } = useLocation();
  const [input, setInput] = useState(props.formMessage ?? "");
  const transport = useMemo(
    () =>
      new DefaultChatTransport<AssistantMessage>({
        api: "/ai-optimizer/chat",
        prepareSendMessagesRequest: ({ id, messages, trigger }) => {
          const last = messages.at(-1);
          const text = last?.role === "user" ? last.parts.map((p) => (p.type === "text" ? p.text : "")).join("") : undefined;
          return { body: trigger === "regenerate-message" ? { chatId: id, retry: true } : { chatId: id, message: text } };
        },
      }),
    [],
  );
  const { messages, sendMessage, status, stop, error, regenerate, clearError } = useChat<AssistantMessage>({
    id: chatId,
    messages: initialMessages,
    transport,
    experimental_throttle: 50,
    onFinish: () => {
      // The chat now has an address and belongs in the list of past chats.
      if (!props.saved || !chats.some((c) => c.id === chatId))
        void navigate(optimizerHref(search, { chat: chatId }), { replace: true, preventScrollReset: true });
    },
  });
  const busy = status === "submitted" || status === "streaming";
  const endRef = useScrollToEnd(messages, status);

  function send(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || isBlank(input)) return;
    if (error) clearError();
    void sendMessage({ text: input.trim() });
    setInput("");
  }

  const retryButton = (
    <>
      {" "}
      {hydrated ? (
        <button type="button" onClick={() => void regenerate()} className="ml-1 font-semibold underline" disabled={busy}>
          Retry
        </button>
      ) : (
        <Form method="post" className="inline">
          <input type="hidden" name="intent" value="retry" />
          <input type="hidden" name="chatId" value={chatId} />
          <button type="submit" className="ml-1 font-semibold underline">
            Retry
          </button>
        </Form>
      )}
    </>
  );
  const last = messages.at(-1);

  return (
    <div className="flex min-h-0 flex-1 gap-4">
      <nav
        aria-label="Past chats"
        className="relative hidden w-56 shrink-0 flex-col overflow-y-auto rounded-xl border border-gray-200 bg-white p-3 text-sm shadow-sm lg:flex"
      >
        <Link
          to={optimizerHref(search, { chat: null })}
          reloadDocument={false}
          className="mb-3 rounded-lg border border-gray-300 px-3 py-2 text-center font-semibold text-gray-800 hover:bg-gray-50"
        >
          New chat
        </Link>
        <h2 className="mb-1 text-xs font-semibold uppercase tracking-wide text-gray-500">Past chats</h2>
        <PastChats chats={chats} current={chatId} timeZone={props.timeZone} search={search} />
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <p className="mb-2 text-xs text-gray-500">
          {accountName} · {model ? `Model: ${model}` : "No AI model configured: the built-in analyst answers"}
          <Link to={optimizerHref(search, { chat: null })} className="ml-3 font-semibold text-blue-700 lg:hidden">
            New chat
          </Link>
        </p>
        {/* Narrow screens have no room for the list beside the conversation: it folds above it (no JavaScript needed). */}
        {chats.length > 0 ? (
          <details className="mb-2 rounded-lg border border-gray-200 bg-white px-3 py-2 text-sm lg:hidden">
            <summary className="cursor-pointer font-semibold text-gray-700">Past chats ({chats.length})</summary>
            <nav aria-label="Past chats" className="relative mt-2 max-h-60 overflow-y-auto">
              <PastChats chats={chats} current={chatId} timeZone={props.timeZone} search={search} />
            </nav>
          </details>
        ) : null}
        <Conversation empty={messages.length === 0 && status === "ready"} endRef={endRef}>
          {messages.map((m) => (
            <MessageView key={m.id} message={m} retry={m === last ? retryButton : undefined} />
          ))}
          {status === "submitted" ? <ThinkingBubble /> : null}
          {error ? (
            <li role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {error.message || "The assistant could not answer."}
              {retryButton}
            </li>
          ) : null}
        </Conversation>
        <ComposerError id="chat-message-error" message={props.formError} />
        <Composer
          value={input}
          onValueChange={setInput}
          onSubmit={send}
          sendDisabled={hydrated && (busy || isBlank(input))}
          errorId={props.formError ? "chat-message-error" : undefined}
          hidden={
            <>
              <input type="hidden" name="intent" value="send" />
              <input type="hidden" name="chatId" value={chatId} />
            </>
          }
          beforeSend={
            busy ? (
              <button
                type="button"
                onClick={() => void stop()}
                className="rounded-lg border border-gray-300 bg-white px-5 py-2.5 font-semibold text-gray-800 shadow-sm hover:bg-gray-50"
              >
                Stop
              </button>
            ) : null
          }
        />
      </div>
    </div>
  );
}

function PastChats({ chats, current, timeZone, search }: { chats: ChatListItem[]; current: string; timeZone: string; search: string }) {
  if (chats.length === 0) return <p className="text-gray-500">None yet.</p>;
  return (
    <ul className="space-y-1">
      {chats.map((c) => (
        <li key={c.id}>
          <Link
            to={optimizerHref(search, { chat: c.id })}
            aria-current={c.id === current ? "page" : undefined}
            className={`block truncate rounded px-2 py-1 ${c.id === current ? "bg-blue-50 font-semibold text-blue-800" : "text-gray-700 hover:bg-gray-50"}`}
            title={`${c.title} · ${formatDateTime(c.updatedAt, timeZone)}`}
          >
            {c.title}
          </Link>
        </li>
      ))}
    </ul>
  );
}

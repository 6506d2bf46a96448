import { useEffect, useRef, type ReactNode } from "react";
import { Form } from "react-router";
import { CHAT_END_ID, MAX_CHAT_MESSAGE_LENGTH } from "~/lib/chat";

// The chat's markup, shared by the assistant (chat-panel.tsx) and the seed's
// chat while no account is connected (offline-chat.tsx): the conversation with
// its empty state, the bubbles, "AI is thinking..." and the composer. Behaviour
// (what sending does) stays with each of them.

/** A ref for the end of the conversation, scrolled into view whenever `messages` or `state` change. */
export function useScrollToEnd(messages: unknown, state: unknown) {
  const endRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [messages, state]);
  return endRef;
}

/** The conversation: the seed's empty state, or the list of messages (its children, `<li>`s). */
export function Conversation({ empty, endRef, children }: { empty: boolean; endRef: React.RefObject<HTMLDivElement | null>; children: ReactNode }) {
  return (
    <section aria-label="Conversation" className="relative flex-1 overflow-y-auto rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
      {empty ? (
        <div className="flex h-full flex-col items-center justify-center text-center">
          <h2 className="text-lg font-semibold text-gray-900">AI Assistant Ready</h2>
          <p className="mt-2 max-w-md text-gray-600">Ask about your campaigns' performance, wasted spend, budgets or keywords.</p>
        </div>
      ) : (
        <ol className="space-y-4">{children}</ol>
      )}
      <div ref={endRef} id={CHAT_END_ID} />
    </section>
  );
}

/**
 * One message. The person's text and the offline reply keep their line breaks;
 * the assistant's Markdown (`markdown`) lays itself out and gets a wider bubble.
 */
export function Bubble({ role, markdown = false, children }: { role: "user" | "assistant"; markdown?: boolean; children: ReactNode }) {
  const look = role === "user" ? "bg-blue-600 text-white" : "bg-gray-100 text-gray-900";
  return (
    <li className={`flex ${role === "user" ? "justify-end" : "justify-start"}`} data-role={role}>
      <div className={`${markdown ? "max-w-[85%]" : "max-w-[75%] whitespace-pre-wrap"} rounded-2xl px-4 py-2.5 text-sm ${look}`}>
        <span className="sr-only">{role === "user" ? "You: " : "Assistant: "}</span>
        {children}
      </div>
    </li>
  );
}

export function ThinkingBubble() {
  return (
    <li className="flex justify-start" aria-live="polite">
      <div className="rounded-2xl bg-gray-100 px-4 py-2.5 text-sm italic text-gray-600">AI is thinking...</div>
    </li>
  );
}

/** The message box and Send (a real form: without JavaScript it posts to the page). */
export function Composer({
  value,
  onValueChange,
  onSubmit,
  sendDisabled,
  errorId,
  hidden,
  beforeSend,
}: {
  value: string;
  onValueChange: (value: string) => void;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  sendDisabled: boolean;
  /** The id of the message's error, when one is shown. */
  errorId?: string;
  /** The form's hidden fields. */
  hidden: ReactNode;
  /** A control between the box and Send (the assistant's Stop). */
  beforeSend?: ReactNode;
}) {
  return (
    <Form method="post" onSubmit={onSubmit} className="mt-4 flex gap-3">
      {hidden}
      <label htmlFor="chat-message" className="sr-only">
        Message
      </label>
      <input
        id="chat-message"
        name="message"
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        placeholder="Ask about your campaigns..."
        autoComplete="off"
        required
        pattern=".*\S.*"
        maxLength={MAX_CHAT_MESSAGE_LENGTH}
        aria-describedby={errorId}
        className="flex-1 rounded-lg border border-gray-300 px-4 py-2.5 shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500"
      />
      {beforeSend}
      <button
        type="submit"
        disabled={sendDisabled}
        className="rounded-lg bg-blue-600 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50"
      >
        Send
      </button>
    </Form>
  );
}

/** A refused message (without JavaScript, from the page's action), under the conversation. */
export function ComposerError({ id, message }: { id?: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" id={id} className="mt-2 text-sm text-red-600">
      {message}
    </p>
  );
}

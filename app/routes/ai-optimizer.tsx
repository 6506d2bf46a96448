import { ChatPanel } from "~/components/chat-panel";
import { OfflineChat } from "~/components/offline-chat";
import { PageHeader } from "~/components/ui";
import type { ChatMessage } from "~/lib/chat";
import { chatPage, chatPageAction } from "~/server/ai/chat-page.server";
import { requireUser } from "~/server/auth/session.server";
import type { Route } from "./+types/ai-optimizer";

export function meta() {
  return [{ title: "AI Optimizer · Ads AI Manager" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return chatPage(user, new URL(request.url));
}

// Without JavaScript the form posts here and the server renders the full reply.
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  return chatPageAction(user, await request.formData());
}

export default function AiOptimizer({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as { messages?: ChatMessage[]; error?: string | null; message?: string } | undefined;
  return (
    <div className="flex h-[calc(100vh-4rem)] flex-col">
      <PageHeader title="AI Optimizer" description="Chat with your AI assistant about your campaigns" />
      {loaderData?.connected ? (
        <ChatPanel
          key={loaderData.chatId}
          chatId={loaderData.chatId}
          saved={loaderData.saved}
          initialMessages={loaderData.messages}
          chats={loaderData.chats}
          accountName={loaderData.accountName}
          model={loaderData.model}
          formError={result?.error ?? (loaderData.notFound ? "That chat was not found; this is a new one." : null)}
          formMessage={result?.message}
        />
      ) : (
        <OfflineChat initialMessages={result?.messages ?? []} error={result?.error ?? null} />
      )}
    </div>
  );
}

import { ChatPanel } from "~/components/chat-panel";
import { OfflineChat } from "~/components/offline-chat";
import { RecommendationsPanel, type PanelError } from "~/components/recommendations-panel";
import { PageHeader } from "~/components/ui";
import type { ChatMessage } from "~/lib/chat";
import { chatPage, chatPageAction } from "~/server/ai/chat-page.server";
import { userContext } from "~/server/request-context.server";
import { isRecommendationIntent, recommendationsAction, recommendationsPanel } from "~/server/optimizer/pages.server";
import type { Route } from "./+types/ai-optimizer";

export function meta() {
  return [{ title: "AI Optimizer · Ads AI Manager" }];
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { user } = context.get(userContext);
  const [chat, recommendations] = await Promise.all([chatPage(user, url), recommendationsPanel(user, url)]);
  return { ...chat, recommendations };
}

// Without JavaScript the form posts here and the server renders the full reply.
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(userContext);
  const form = await request.formData();
  // The form posted to the page's own address: its chat and list are kept in the redirect.
  const url = new URL(request.url);
  // The recommendations panel's forms (intent rec-…); everything else is the chat's.
  if (isRecommendationIntent(form)) return recommendationsAction(user, form, url);
  return chatPageAction(user, form, url);
}

export default function AiOptimizer({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as { messages?: ChatMessage[]; error?: string | null; message?: string; recError?: PanelError } | undefined;
  return (
    <div data-fit-screen className="flex flex-col gap-4 xl:min-h-0 xl:flex-1 xl:flex-row">
      <div className="flex h-[calc(100vh-4rem)] min-w-0 flex-1 flex-col xl:h-auto">
        <PageHeader title="AI Optimizer" description="Chat with your AI assistant about your campaigns" />
        {loaderData?.connected ? (
          <ChatPanel
            key={loaderData.chatId}
            chatId={loaderData.chatId}
            saved={loaderData.saved}
            initialMessages={loaderData.messages}
            chats={loaderData.chats}
            accountName={loaderData.accountName}
            timeZone={loaderData.timeZone}
            model={loaderData.model}
            formError={result?.error ?? (loaderData.notFound ? "That chat was not found; this is a new one." : null)}
            formMessage={result?.message}
          />
        ) : (
          <OfflineChat initialMessages={result?.messages ?? []} error={result?.error ?? null} />
        )}
      </div>
      {loaderData?.recommendations ? <RecommendationsPanel data={loaderData.recommendations} error={result?.recError ?? null} /> : null}
    </div>
  );
}

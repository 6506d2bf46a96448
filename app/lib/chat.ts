import { z } from "zod";

export const ChatMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(4000),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const MAX_CHAT_MESSAGE_LENGTH = 4000;
/** The seed's simulated thinking time. */
export const CHAT_REPLY_DELAY_MS = 1000;

/** What the assistant says while no Google Ads account is connected (seed §2). */
export const CONNECT_FIRST_REPLY =
  "I'd be happy to help optimize your campaigns! To get started, please connect your Google Ads account first so I can analyze your campaign data and give you recommendations.";

export function isBlank(message: string) {
  return message.trim().length === 0;
}

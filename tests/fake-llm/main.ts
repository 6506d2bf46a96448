import { startFakeOpenAI } from "./fake-openai";

// Standalone: `tsx tests/fake-llm/main.ts` (Playwright's webServer, manual runs, the eval).
const port = Number(process.env.FAKE_LLM_PORT ?? 0);
const fake = await startFakeOpenAI({ port });
console.log(`fake OpenAI-compatible server at ${fake.url}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Test support: a small OpenAI-compatible server (POST /v1/chat/completions,
 * streaming Server-Sent Events of chat.completion.chunk, tool calls included)
 * on 127.0.0.1, standing in for Ollama/vLLM/llama.cpp in end-to-end tests and
 * in `npm run eval:assistant`. It speaks the real wire format, so the app's
 * real provider package, route, hook and page are exercised.
 *
 * Its "model" is a deterministic planner: the newest user message picks a
 * short plan of tool calls (only tools the request offers), one call per
 * step; once the plan's results are back it writes an answer from them,
 * streamed in small pieces. Trigger words for failure tests: "fail with 401",
 * "fail with 429", "slow answer".
 */

interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content?: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type: "function"; function: { name: string } }>;
}

type PlannedCall = { name: string; args: (results: unknown[]) => Record<string, unknown> | null };

const textOf = (m: ChatMessage | undefined) =>
  typeof m?.content === "string" ? m.content : Array.isArray(m?.content) ? m.content.map((p) => p.text ?? "").join("") : "";

function plan(question: string, offered: Set<string>): PlannedCall[] {
  const q = question.toLowerCase();
  const calls: PlannedCall[] = [];
  const add = (name: string, args: PlannedCall["args"]) => offered.has(name) && calls.push({ name, args });
  if (/pause|propose/.test(q)) {
    add("list_campaigns", () => ({ status: "ENABLED", sort: "cost", limit: 5 }));
    add("propose_changes", (results) => {
      const rows = (results[0] as { rows?: Array<{ id: string; name: string }> })?.rows ?? [];
      const target = rows.at(-1);
      return target ? { title: `Pause ${target.name}`, actions: [{ type: "status", kind: "campaign", ids: [target.id], status: "PAUSED" }] } : null;
    });
  } else if (/recommend|next|should i|improve/.test(q)) {
    if (offered.has("get_recommendations")) add("get_recommendations", () => ({ limit: 5 }));
    else add("get_search_terms", () => ({ nonConvertingOnly: true, limit: 10 }));
    add("list_campaigns", () => ({ status: "ENABLED", limit: 10 }));
  } else if (/wast|money|without conver|no conver/.test(q)) {
    add("get_search_terms", () => ({ nonConvertingOnly: true, limit: 10 }));
    add("get_keywords", () => ({ nonConvertingOnly: true, limit: 5 }));
  } else if (/search term|quer|negative/.test(q)) {
    add("get_search_terms", () => ({ limit: 10 }));
  } else if (/keyword|quality score|bid/.test(q)) {
    add("get_keywords", () => ({ limit: 10 }));
  } else if (/budget|limited|impression share/.test(q)) {
    add("list_campaigns", () => ({ status: "ENABLED", sort: "cost", limit: 20 }));
  } else if (/\bwork(ed)?\b|impact|effect/.test(q) && offered.has("get_change_impact")) {
    add("get_change_impact", () => ({}));
  } else if (/change|history|happened/.test(q)) {
    add("get_change_history", () => ({}));
  } else if (/campaign (\d{5,})/.test(q)) {
    const id = /campaign (\d{5,})/.exec(q)![1];
    add("get_campaign", () => ({ campaignId: id }));
  } else if (/campaign|doing|perform|overview|spend|total/.test(q)) {
    add("get_account_overview", () => ({}));
    add("list_campaigns", () => ({ limit: 10 }));
  }
  return calls;
}

const PRIMARY = ["name", "searchTerm", "keyword", "title", "change", "period"];

function describeResult(result: unknown): string {
  if (typeof result !== "object" || result === null) return String(result).slice(0, 300);
  const r = result as Record<string, unknown>;
  if (typeof r.changeSetId === "string") {
    return `I proposed “${String(r.title)}” for your review: [Review the proposal](${String(r.url)}). Nothing changes in Google Ads until you press Apply there.`;
  }
  const rows = Array.isArray(r.rows) ? (r.rows as Array<Record<string, unknown>>) : [];
  const top = rows
    .slice(0, 3)
    .map((row) => {
      const key = PRIMARY.find((k) => typeof row[k] === "string");
      const label = key ? String(row[key]) : "row";
      return typeof row.cost === "number" ? `“${label}” (cost ${row.cost.toFixed(2)})` : `“${label}”`;
    })
    .join(", ");
  return `${String(r.summary ?? "Read the data")}.${top ? ` Top: ${top}.` : ""}`;
}

function answer(messages: ChatMessage[], lastUser: number): string {
  const results: string[] = [];
  for (const m of messages.slice(lastUser + 1)) {
    if (m.role !== "tool") continue;
    const raw = textOf(m);
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // An error text from the app: quoted as is.
    }
    results.push(typeof parsed === "string" ? `The tool said: ${parsed}` : describeResult(parsed));
  }
  if (results.length === 0) return `Hello! I am the test model. Ask me about campaigns, wasted spend, search terms, keywords or budgets.`;
  return `Here is what I found.\n\n${results.map((r) => `- ${r}`).join("\n")}`;
}

export interface FakeOpenAI {
  url: string;
  /** Every request body received, newest last. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

export async function startFakeOpenAI(opts: { port?: number; pieceDelayMs?: number } = {}): Promise<FakeOpenAI> {
  const requests: ChatRequest[] = [];
  const pieceDelay = opts.pieceDelayMs ?? 15;
  const server = http.createServer((req, res) => {
    if (req.method !== "POST" || !/\/chat\/completions$/.test(req.url ?? "")) {
      res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => void respond(raw, res));
  });

  async function respond(raw: string, res: http.ServerResponse) {
    let body: ChatRequest;
    try {
      body = JSON.parse(raw) as ChatRequest;
    } catch {
      res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "bad json" } }));
      return;
    }
    requests.push(body);
    const lastUser = body.messages.map((m) => m.role).lastIndexOf("user");
    const question = textOf(body.messages[lastUser]);
    if (/fail with 401/i.test(question)) {
      res
        .writeHead(401, { "Content-Type": "application/json" })
        .end(JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }));
      return;
    }
    if (/fail with 429/i.test(question)) {
      res.writeHead(429, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: "Rate limit reached", type: "rate_limit_error" } }));
      return;
    }
    // The ad generator: one non-streamed JSON answer (structured output), good lines and a few
    // the app must refuse (a made-up discount, shouting, a headline too long).
    if (body.stream !== true && /You write Google Ads responsive search ad assets/.test(textOf(body.messages.find((m) => m.role === "system")))) {
      const repair = /Write exactly/.test(question);
      const content = JSON.stringify(
        repair
          ? {
              headlines: ["Zip Up and Sleep Tight", "Light to Carry on Trails"],
              descriptions: ["Soft linings and snug hoods keep young campers warm from dusk until breakfast."],
              path1: "",
              path2: "",
            }
          : {
              headlines: [
                "Made for Happy Campers",
                "Warm Nights Under Canvas",
                "Packs Small, Sleeps Warm",
                "Save 60% on Every Bag",
                "HUGE WINTER BLOWOUT",
                "Sleeping Bags Built for Every Single Camping Trip",
              ],
              descriptions: ["Warm, light sleeping bags sized for young campers, for tents, cabins and sleepovers.", "Half price on all bags this week only!!"],
              path1: "sleeping-bags",
              path2: "kids",
            },
      );
      res.writeHead(200, { "Content-Type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${Date.now()}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 120, total_tokens: Math.ceil(raw.length / 4) + 120 },
        }),
      );
      return;
    }
    const offered = new Set((body.tools ?? []).map((t) => t.function.name));
    const steps = plan(question, offered);
    const results: unknown[] = [];
    for (const m of body.messages.slice(lastUser + 1)) {
      if (m.role !== "tool") continue;
      try {
        results.push(JSON.parse(textOf(m)));
      } catch {
        results.push(textOf(m));
      }
    }
    const next = steps[results.length];
    const args = next?.args(results);
    const id = `chatcmpl-${Date.now()}`;
    const created = Math.floor(Date.now() / 1000);
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let closed = false;
    res.on("close", () => (closed = true));
    send({ role: "assistant", content: "" });
    let finish: string;
    if (next && args) {
      const argText = JSON.stringify(args);
      send({ tool_calls: [{ index: 0, id: `call_${results.length}_${created}`, type: "function", function: { name: next.name, arguments: "" } }] });
      for (let i = 0; i < argText.length; i += 20) send({ tool_calls: [{ index: 0, function: { arguments: argText.slice(i, i + 20) } }] });
      finish = "tool_calls";
    } else {
      const slow = /slow answer/i.test(question);
      const text = slow ? Array.from({ length: 400 }, (_, i) => `word${i} `).join("") : answer(body.messages, lastUser);
      for (const piece of text.match(/[\s\S]{1,4}/g) ?? []) {
        if (closed) return;
        send({ content: piece });
        await wait(slow ? 50 : pieceDelay);
      }
      finish = "stop";
    }
    send({}, finish);
    if (body.stream_options?.include_usage) {
      const prompt = Math.ceil(raw.length / 4);
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: 42, total_tokens: prompt + 42 } })}\n\n`,
      );
    }
    res.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

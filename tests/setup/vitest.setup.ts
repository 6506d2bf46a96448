import { afterEach, beforeEach, vi, type MockInstance } from "vitest";

// A test that logs console.error fails unless it says it expects to
// (`consoleError.mockImplementation(() => {})`): silent errors hide bugs.
export let consoleError: MockInstance<(...args: unknown[]) => void>;

// The same for the server's log (app/server/log.server.ts): a line at level
// error fails the test, unless the test captures the log (`captureLogs()`)
// and so says it expects it. Other lines go to stdout as usual.
const LOG_SINK = Symbol.for("ads-ai-manager.log-test-sink");
const globals = globalThis as typeof globalThis & { [LOG_SINK]?: (line: string) => void };

beforeEach(() => {
  const original = console.error;
  consoleError = vi.spyOn(console, "error");
  consoleError.mockImplementation((...args: unknown[]) => {
    original(...args);
    throw new Error("console.error was called. If the test expects it, mock it: consoleError.mockImplementation(() => {})");
  });
  globals[LOG_SINK] = (line) => {
    process.stdout.write(line);
    const { level } = JSON.parse(line) as { level?: string };
    if (level === "error" || level === "fatal") {
      throw new Error("An error was logged. If the test expects it, capture the log: captureLogs() from ~/server/log.server");
    }
  };
});

afterEach(() => {
  consoleError.mockRestore();
  delete globals[LOG_SINK];
});

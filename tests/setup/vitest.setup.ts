import { afterEach, beforeEach, vi, type MockInstance } from "vitest";

// A test that logs console.error fails unless it says it expects to
// (`consoleError.mockImplementation(() => {})`): silent errors hide bugs.
export let consoleError: MockInstance<(...args: unknown[]) => void>;

beforeEach(() => {
  const original = console.error;
  consoleError = vi.spyOn(console, "error");
  consoleError.mockImplementation((...args: unknown[]) => {
    original(...args);
    throw new Error("console.error was called. If the test expects it, mock it: consoleError.mockImplementation(() => {})");
  });
});

afterEach(() => {
  consoleError.mockRestore();
});

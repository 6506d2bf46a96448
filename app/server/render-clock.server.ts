/**
 * The server's clock for what a page says relative to now ("synced 3 minutes
 * ago", "Last analysis 1 hour ago"), sent with the page's data so the browser
 * hydrates the same text. To the second, so the same page asked for again
 * within it is the same render and its document is reused (ADR 017).
 */
export function renderClock(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
}

// The workspace every request acts on: the app's `?workspace=<id>` (routes.ts sets it before a page loads),
// and the person it was chosen by. Null until the app knows it: the server then answers for the workspace
// it remembers for the user. Apart from trpc.ts (which forgets the cache on a change: enterWorkspace) so
// that the route guards, in the entry chunk, read it without loading the tRPC client.
let requestWorkspace: number | null = null;
let chosenBy: number | null = null;

/**
 * The workspace requests act on for this person, or null when none is chosen yet. Another person signed
 * in since (a log-out, then a log-in in this tab): the choice of the one before is dropped.
 */
export function workspaceInUse(personId: number): number | null {
  if (chosenBy !== personId) {
    requestWorkspace = null;
    chosenBy = personId;
  }
  return requestWorkspace;
}

/** Whether this tab acts on a workspace yet (none before the first app page of a page load). */
export function workspaceChosen(): boolean {
  return requestWorkspace !== null;
}

/** Makes `id` the workspace requests act on (trpc.ts's enterWorkspace, which also forgets the cache). */
export function setRequestWorkspace(id: number): void {
  requestWorkspace = id;
}

/** `X-Workspace` for a request the app makes itself (tRPC, or a `fetch('/api/…')`). */
export function workspaceHeaders(): Record<string, string> {
  return requestWorkspace === null ? {} : { 'X-Workspace': String(requestWorkspace) };
}

/** A link the browser opens by itself (a download, a new tab) carries the workspace as `?workspace=`. */
export function withWorkspace(url: string): string {
  if (requestWorkspace === null) return url;
  const [path, hash] = url.split('#', 2) as [string, string | undefined];
  const joined = `${path}${path.includes('?') ? '&' : '?'}workspace=${requestWorkspace}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

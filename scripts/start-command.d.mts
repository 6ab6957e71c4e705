/** `VAR=value … node <flags> dist/server.mjs` → { env, args } for spawn(process.execPath, args). */
export function startCommand(root: string): { env: Record<string, string>; args: string[] };

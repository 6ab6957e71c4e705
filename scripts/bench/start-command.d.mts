/** `VAR=value … node <flags> dist/server.mjs` → { env, args } for spawn(process.execPath, args). */
export function startCommand(root: string): { env: Record<string, string>; args: string[] };
/** A loopback port the OS says is free now, for a server the script starts (its PORT). */
export function freePort(): Promise<number>;

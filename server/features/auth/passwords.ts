import argon2 from 'argon2';

// OWASP's argon2id minimum: m = 19 MiB, t = 2, p = 1.
const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, options);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies exactly what was received. With no stored hash it still runs one verification against a
 * dummy, so an unknown username takes as long as a wrong password (no user enumeration by timing).
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  if (hash === undefined) {
    dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

import fs from 'node:fs';

// Everything under DATA_DIR is the owner's alone: password and session hashes, uploads, mails, backups.
// Folders are created 0700 and files 0600 whatever the umask; ones made by an older version are narrowed
// when the server next opens them (where the server owns them; otherwise they are left as they are).

/** Creates `dir` (and missing parents) as 0700, or narrows it to 0700. */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  narrow(dir, 0o700);
}

/**
 * Narrows an existing file to 0600, or creates it empty as 0600 (so SQLite's -wal and -shm follow it). An
 * existing file is never opened: closing a descriptor of a file releases every POSIX lock the process holds
 * on it, SQLite's included (a database this process already has open).
 */
export function privateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  narrow(file, 0o600);
}

function narrow(target: string, mode: number): void {
  try {
    if ((fs.statSync(target).mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch {
    // Not ours to change (a mounted volume, another owner): the operator's choice stands.
  }
}

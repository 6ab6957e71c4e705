import os from 'node:os';
import type SQLite from 'better-sqlite3';

/**
 * The background thread's CPU priority (Linux keeps a nice value per thread: os.setPriority() without a
 * process id changes the calling thread only). It works at a low priority (BACKGROUND_NICE), and at the normal one
 * while it holds the database's write lock: SQLite has one writer, and a starved thread holding it would
 * hold up the scan writer and every request's write (priority inversion). That is, the priority-ceiling
 * rule: raised before a statement runs, lowered once no transaction is open.
 */
/**
 * Nice 10: a tenth of the CPU share of a normal thread while both want a core. Low enough that redirects
 * keep their speed during a burst; not the lowest (19, a sixtieth), at which a machine kept busy by other
 * work (a CI run: browsers, compilers, test workers) held a delivery back for more than ten seconds.
 */
export const BACKGROUND_NICE = 10;

export interface ThreadPriority {
  low(): void;
  high(): void;
}

/**
 * Lowers the calling thread to BACKGROUND_NICE, when it may raise itself back (root, CAP_SYS_NICE or
 * RLIMIT_NICE; tried with one step first). Where it may not, it stays at its priority and answers null: a
 * thread that cannot come back to the normal priority must not hold the write lock at a low one.
 */
export function backgroundPriority(): ThreadPriority | null {
  try {
    os.setPriority(1);
    os.setPriority(0);
  } catch {
    return null;
  }
  let raised = true;
  const priority: ThreadPriority = {
    low() {
      if (!raised) return;
      os.setPriority(BACKGROUND_NICE);
      raised = false;
    },
    high() {
      if (raised) return;
      os.setPriority(0);
      raised = true;
    },
  };
  priority.low();
  return priority;
}

const RUNNERS = new Set<PropertyKey>(['run', 'all', 'get', 'iterate']);

/**
 * The connection with the priority ceiling applied: every statement runs at the normal priority, and the
 * thread goes back to the low one once the statement is done and no transaction is open (BEGIN … COMMIT
 * keeps it raised throughout, since the lock is held until the end).
 */
export function withPriorityCeiling(database: SQLite.Database, priority: ThreadPriority): SQLite.Database {
  const settle = () => {
    if (!database.inTransaction) priority.low();
  };
  const watch = (statement: SQLite.Statement): SQLite.Statement =>
    new Proxy(statement, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (!RUNNERS.has(key)) return (value as (...args: unknown[]) => unknown).bind(target);
        return (...args: unknown[]) => {
          priority.high();
          try {
            return (value as (...args: unknown[]) => unknown).apply(target, args);
          } finally {
            settle();
          }
        };
      },
    });
  return new Proxy(database, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key === 'prepare') return (source: string) => watch(target.prepare(source));
      // better-sqlite3's own transactions begin and commit inside: settled when the function returns.
      if (key === 'transaction')
        return (fn: (...args: unknown[]) => unknown) => {
          const transaction = target.transaction(fn);
          const settled =
            (run: (...args: unknown[]) => unknown) =>
            (...args: unknown[]) => {
              priority.high();
              try {
                return run(...args);
              } finally {
                settle();
              }
            };
          return Object.assign(settled(transaction), {
            deferred: settled((...args: unknown[]) => transaction.deferred(...args)),
            immediate: settled((...args: unknown[]) => transaction.immediate(...args)),
            exclusive: settled((...args: unknown[]) => transaction.exclusive(...args)),
          });
        };
      if (key === 'exec' || key === 'pragma')
        return (...args: unknown[]) => {
          priority.high();
          try {
            return (value as (...args: unknown[]) => unknown).apply(target, args);
          } finally {
            settle();
          }
        };
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface LazyModule<T> {
  (): T;
  /**
   * Forgets the package: it and the modules it brought into the require cache (also those it loaded
   * later, on first use) leave the cache, so the garbage collector can take them once nothing made with
   * them is in use any more. The next call loads it anew.
   */
  release(): void;
}

type CachedModule = NonNullable<(typeof require.cache)[string]>;

/**
 * A package loaded the first time it is needed rather than at start-up: the report writers, the PNG
 * renderer, Stripe, the PostgreSQL driver and the mail transport are megabytes of memory an idle server
 * (or one that never exports a PDF) should not hold. The type comes from a type-only import.
 */
export function lazyRequire<T>(id: string): LazyModule<T> {
  let loaded: { value: T; file: string; before: Set<string> } | undefined;
  const load = () => {
    if (!loaded) {
      const before = new Set(Object.keys(require.cache));
      // A parent of its own: a module lists the modules it required, so a parent shared by every
      // package would keep each released one reachable.
      const own = createRequire(import.meta.url);
      const value = own(id) as T;
      loaded = { value, file: own.resolve(id), before };
    }
    return loaded.value;
  };
  load.release = () => {
    if (!loaded) return;
    const { file, before } = loaded;
    loaded = undefined;
    const seen = new Set<CachedModule>();
    const visit = (module: CachedModule | undefined) => {
      if (!module || seen.has(module) || before.has(module.filename)) return;
      seen.add(module);
      for (const child of module.children) visit(child);
    };
    visit(require.cache[file]);
    for (const module of seen) {
      delete require.cache[module.filename];
      // Each module links to those it required and to the one that required it first. One that stays
      // reachable after release (graceful-fs, loaded by exceljs, hangs a getter on the global object)
      // would otherwise keep the whole package through those links.
      module.children = [];
      module.parent = undefined;
    }
  };
  return load;
}

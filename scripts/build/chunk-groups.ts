// The client's chunks (vite.config.ts): a few by what a screen needs, instead of Rolldown's one chunk per
// set of pages sharing a module (190 of them, a hundred under 2 KB: 47 requests for the login form, 98
// for /create). Rolldown's automatic splitting still makes each page's own chunk and what pages share
// beyond these groups.
import type { Plugin } from 'vite';

/** What Rolldown tells a group's `name` function about the module graph. */
export interface ModuleGraph {
  getModuleInfo(id: string): {
    importers: string[];
    dynamicImporters: string[];
    importedIds: string[];
    dynamicallyImportedIds: string[];
  } | null;
}

/** How each module of the build is reached, worked out once per build from any one module. */
export class Reach {
  /** The modules nothing imports (the entry). */
  private readonly roots: string[];
  private readonly pages = new Map<string, Set<string>>();
  private readonly without = new Map<RegExp, Set<string>>();
  private readonly reachesLibrary = new Map<string, boolean>();

  constructor(
    private readonly graph: ModuleGraph,
    from: string,
  ) {
    // Up to the entry, whichever module the bundler asks about first.
    const seen = new Set<string>([from]);
    const roots: string[] = [];
    for (const id of seen) {
      const info = graph.getModuleInfo(id);
      const importers = [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])];
      if (importers.length === 0) roots.push(id);
      for (const importer of importers) seen.add(importer);
    }
    this.roots = roots;
    // Every lazy page (a module imported with `import()`) and the entry: the modules their static imports
    // reach, so the pages whose code each module is part of.
    const all = this.walk(roots, () => true, true);
    const lazy = [...all].filter((id) => (graph.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0);
    for (const page of [...roots, ...lazy])
      for (const id of this.walk([page], () => true, false)) {
        let set = this.pages.get(id);
        if (!set) this.pages.set(id, (set = new Set()));
        set.add(roots.includes(page) ? 'entry' : page);
      }
  }

  /** The modules reached from `start` through modules `enter` allows; by static imports, and dynamic ones too. */
  private walk(start: string[], enter: (id: string) => boolean, dynamic: boolean): Set<string> {
    const seen = new Set(start.filter(enter));
    for (const id of seen) {
      const info = this.graph.getModuleInfo(id);
      for (const next of [
        ...(info?.importedIds ?? []),
        ...(dynamic ? (info?.dynamicallyImportedIds ?? []) : []),
      ])
        if (enter(next)) seen.add(next);
    }
    return seen;
  }

  /** The lazy pages (their module ids) and 'entry' that load `id` with their own code. */
  pagesOf(id: string): Set<string> {
    return this.pages.get(id) ?? new Set();
  }

  /** Whether `from` takes in a module of `library` through its static imports. */
  reaches(from: string, library: RegExp): boolean {
    const key = `${from} ${library.source}`;
    let known = this.reachesLibrary.get(key);
    if (known === undefined) {
      known = [...this.walk([from], () => true, false)].some((id) => library.test(id));
      this.reachesLibrary.set(key, known);
    }
    return known;
  }

  /** Whether module `id` itself imports a module of `library`. */
  importsDirectly(id: string, library: RegExp): boolean {
    return (this.graph.getModuleInfo(id)?.importedIds ?? []).some((m) => library.test(m));
  }

  /** Whether `id` is loaded with `import()` somewhere (a lazy page, a chart loaded apart…). */
  isLazy(id: string): boolean {
    return (this.graph.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0;
  }

  /** Whether `id` is only ever loaded through modules of `library` (recharts' d3 and redux for the charts). */
  onlyThrough(library: RegExp, id: string): boolean {
    let reached = this.without.get(library);
    if (!reached) this.without.set(library, (reached = this.walk(this.roots, (m) => !library.test(m), true)));
    return !reached.has(id);
  }
}

const inModules = /[\\/]node_modules[\\/]/;
const inPackage = (...names: string[]) =>
  new RegExp(`[\\\\/]node_modules[\\\\/](?:${names.map((n) => n.replace('/', '[\\\\/]')).join('|')})[\\\\/]`);
const forms = inPackage('zod', '@mantine/form');
const charts = inPackage('@mantine/charts', 'recharts');
/** The tRPC client and React Query with the app's client (client/lib/trpc.ts), loaded apart (lib/load-api.ts). */
const api =
  /[\\/]node_modules[\\/](?:@trpc[\\/][\w-]+|@tanstack[\\/](?:react-query|query-core))[\\/]|[\\/]client[\\/]lib[\\/]trpc\.ts$/;
/** Component libraries: what several pages share of them goes together. */
const components =
  /[\\/]node_modules[\\/](?:@mantine|@tabler|@floating-ui|react-[\w-]+|use-[\w-]+|tslib|get-nonce)[\\/]/;
const feature = (pattern: string) => new RegExp(`[\\\\/]client[\\\\/]features[\\\\/]${pattern}\\.tsx$`);
/** The pages outside the app's shell: sign-in, the account link, the mailed links' pages. */
const publicPage = feature('auth[\\\\/]\\w+Page');
const shell = feature('shell[\\\\/]AppLayout');
const dashboard = feature('dashboard[\\\\/]DashboardPage');
/** The pages making and listing codes. */
const qrPage = feature('(?:qr-designer|my-qr-codes)[\\\\/]\\w+Page');
const designerPage = feature('qr-designer[\\\\/]\\w+Page');
const designerFeature = feature('qr-designer[\\\\/]\\w+');

/**
 * The chunk a module goes to, or null for Rolldown's own splitting (a page's own code, and what a few
 * pages share beyond these):
 * - `vendor`: what the entry imports from packages (through their index files too: a router hook its
 *   index exports goes there even when only a page uses it), with Mantine's base styles (`vendorAlso`),
 *   the entry's own styles and the bundler's runtime;
 * - `forms`: zod and @mantine/form, only for the pages with a form;
 * - `public-ui`: the components the sign-in and mailed-link pages are made of (the app's pages use most
 *   of them too); `public`: those pages' own code, less the pages whose forms use zod (what they share
 *   with the app's pages goes to `public-ui`, or to `forms` when it uses zod: the schemas);
 * - `shell`: the signed-in app's frame (navigation, menus, the workspace switcher), less the above;
 * - `charts`: @mantine/charts and recharts with what only they use, and the charts pages load apart
 *   (components/LazyCharts.tsx);
 * - `dashboard`: what the dashboard shares with other pages, less the above (its own code is its page's
 *   chunk); what it shares with the create and edit pages goes to `shell`;
 * - `designer`: what the create and edit pages share (with the designer's parts they load apart too);
 *   `qr`: what they and the list of codes share with each other or with other pages; `codes`: what the
 *   list and other pages share that the create and edit pages do not load with their own code (the print
 *   dialog and the smart redirect's fields they load when first opened);
 * - `ui`: the components other pages share.
 * What the charts loaded apart share with pages stays out of `qr` and `ui`: the dashboard would load
 * those chunks with its charts.
 */
export function chunkOf(id: string, reach: Reach, vendorAlso: string): string | null {
  const library = inModules.test(id);
  const at = reach.pagesOf(id);
  // The entry's styles too: one stylesheet for a first load rather than two. And the bundler's runtime.
  if (at.has('entry')) return library || id === vendorAlso || /\.css$/.test(id) ? 'vendor' : null;
  if (id === '\0rolldown/runtime.js') return 'vendor';
  // Not in the sign-in page's first load: its form loads them when first used.
  if (api.test(id)) return 'api';
  if (reach.onlyThrough(forms, id)) return 'forms';
  const pages = [...at];
  if (pages.some((p) => publicPage.test(p))) {
    // Their components' styles go with the app's first stylesheet: every page loads them (one request
    // fewer for each).
    if (library) return /\.css$/.test(id) ? 'vendor' : 'public-ui';
    // A mailed link's page with a form of zod's keeps its own chunk: the sign-in form checks its
    // fields without zod (auth-form-rules.ts), and would otherwise load zod with that page's code.
    // So does one using the tRPC client's hooks (the mailed links' pages), which the sign-in form does not.
    if (pages.every((p) => publicPage.test(p)))
      return reach.reaches(id, forms) || reach.reaches(id, api) ? null : 'public';
    // The app's code they share with other pages: with zod if it uses it (a schema), else with the
    // components (every page of the app loads both).
    return reach.reaches(id, forms) ? 'forms' : 'public-ui';
  }
  if (pages.some((p) => shell.test(p))) return 'shell';
  if (reach.onlyThrough(charts, id)) return 'charts';
  const lazyChart = (p: string) => reach.isLazy(p) && reach.importsDirectly(p, charts);
  // What only pages with charts use, one of them a chart loaded apart (the chart and its table view).
  if (pages.some(lazyChart) && pages.every((p) => reach.reaches(p, charts))) return 'charts';
  // The dashboard's own code (its charts too) stays in its page's chunk: the other pages that load what
  // they share with it (the create and list pages…) then do not load the dashboard's page as well.
  if (pages.some((p) => dashboard.test(p))) {
    // What the dashboard shares with the designer (a colour swatch): to the frame both load, rather than
    // the dashboard's chunk (its grid, table, tooltip…) that /create would otherwise load whole for it.
    if (pages.some((p) => designerPage.test(p))) return 'shell';
    return pages.length > 1 ? 'dashboard' : null;
  }
  if (pages.some(lazyChart) || pages.length < 2) return null;
  // With the designer's own parts loaded when first opened (its closed sections, rare dialogs): what a
  // create or edit page shares only with them is still the designer's, not the list's `qr`.
  if (pages.some((p) => designerPage.test(p)) && pages.every((p) => designerFeature.test(p)))
    return 'designer';
  if (pages.some((p) => qrPage.test(p)) && !reach.reaches(id, charts))
    return pages.some((p) => designerPage.test(p)) ? 'qr' : 'codes';
  return components.test(id) ? 'ui' : null;
}

/** The build plugin: `chunkOf` as Rolldown's code splitting groups (vite.config.ts). */
export function chunkGroups({ vendorAlso }: { vendorAlso: string }): Plugin {
  let reach: Reach | null = null;
  return {
    name: 'qr-creator:chunk-groups',
    apply: 'build',
    buildStart() {
      reach = null;
    },
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              // A chunk takes the modules chunkOf names, not what they import besides (Rolldown's
              // default): the charts' chunk would otherwise take a component the designer shares with
              // them, and the shell's the entry's loading spinner.
              includeDependenciesRecursively: false,
              groups: [
                {
                  debugName: 'qr-creator chunks',
                  name: (id: string, graph: ModuleGraph) =>
                    chunkOf(id, (reach ??= new Reach(graph, id)), vendorAlso),
                },
              ],
            },
          },
        },
      },
    }),
  };
}

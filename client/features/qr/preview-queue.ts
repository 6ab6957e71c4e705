// Drawing a code's preview (styled-qr-code, at the download's size) takes the main thread for a few
// milliseconds: fifty of them at once, as My QR Codes' cards asked, held the page's first frame for a
// quarter of a second or more. A deferred preview waits its turn here: one at a time, each in a task of
// its own so the page paints between them, those on screen first. The first of a batch waits for the next
// frame: the page that asked for them (My QR Codes' fifty cards) is painted before any code is drawn.

type Job = { element: Element | null; run: () => Promise<unknown>; cancelled: boolean };

const jobs: Job[] = [];
const onScreen = new WeakSet<Element>();
let observer: IntersectionObserver | null = null;
let running = false;
/** Whether the queue has been idle since its last job: the next one waits for a frame. */
let idle = true;

function watch(element: Element) {
  observer ??=
    typeof IntersectionObserver === 'undefined'
      ? null
      : new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (entry.isIntersecting) onScreen.add(entry.target);
            else onScreen.delete(entry.target);
          }
        });
  observer?.observe(element);
}

function next() {
  if (running) return;
  const live = jobs.filter((job) => !job.cancelled);
  jobs.length = 0;
  jobs.push(...live);
  if (jobs.length === 0) {
    idle = true;
    return;
  }
  running = true;
  const afterFrame = idle && typeof requestAnimationFrame === 'function';
  idle = false;
  // A task of its own: the browser paints, and learns what is on screen, before each preview.
  const run = () =>
    setTimeout(() => {
      const index = Math.max(
        0,
        jobs.findIndex((job) => job.element !== null && onScreen.has(job.element)),
      );
      const [job] = jobs.splice(index, 1);
      if (job?.element) observer?.unobserve(job.element);
      void (job && !job.cancelled ? job.run() : Promise.resolve())
        .catch(() => undefined)
        .finally(() => {
          running = false;
          next();
        });
    }, 0);
  if (afterFrame) requestAnimationFrame(() => run());
  else run();
}

/** Runs `run` (a preview's drawing) in its turn; the answer cancels it if it has not started. */
export function queuePreview(element: Element | null, run: () => Promise<unknown>): () => void {
  const job: Job = { element, run, cancelled: false };
  if (element) watch(element);
  jobs.push(job);
  next();
  return () => {
    job.cancelled = true;
    if (element) observer?.unobserve(element);
  };
}

/** Makes a preview's root <svg> fill its box (`size` px) whatever size it was rendered at. */
export function sizedSvg(svg: string, size: number): string {
  return svg.replace(/^<svg\b([^>]*)>/, (_m, attrs: string) => {
    const rest = attrs.replace(/\s(?:width|height)="[^"]*"/g, '');
    return `<svg${rest} width="${size}" height="${size}" focusable="false" style="display:block">`;
  });
}

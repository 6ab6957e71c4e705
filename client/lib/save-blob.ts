import { safeFileName } from '../../src/file-name';

/**
 * Saves a blob under `fileName` through a temporary <a download> link; every download of the page goes
 * through here, so none is named with invisible characters (safeFileName), whoever made the name.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = safeFileName(fileName) || 'download';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { codesCsv, zipStream, type ArchiveImage } from './bulk-archive.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Images that count their renders; each takes `ms` and is `bytes` long. */
function countingImages(count: number, bytes = 1000, ms = 2) {
  const state = { rendered: 0 };
  const images: ArchiveImage[] = Array.from({ length: count }, (_, i) => ({
    fileName: `code ${i}.png`,
    render: async () => {
      await pause(ms);
      state.rendered += 1;
      return new Uint8Array(bytes).fill(i % 256);
    },
  }));
  return { images, state };
}

describe('codesCsv', () => {
  it('writes id,name,short_url with RFC 4180 quoting and no formula a spreadsheet would run', () => {
    expect(
      codesCsv([
        { id: 1, name: 'Menu', shortUrl: 'http://localhost:3000/r/abc' },
        { id: 2, name: 'Say "hi", friend', shortUrl: null },
        { id: 3, name: '=HYPERLINK("http://evil.example")', shortUrl: null },
        { id: 4, name: '+1 555', shortUrl: null },
        { id: 5, name: 'two\nlines', shortUrl: null },
      ]),
    ).toBe(
      'id,name,short_url\r\n' +
        '1,Menu,http://localhost:3000/r/abc\r\n' +
        '2,"Say ""hi"", friend",\r\n' +
        `3,"'=HYPERLINK(""http://evil.example"")",\r\n` +
        "4,'+1 555,\r\n" +
        '5,"two\nlines",\r\n',
    );
  });
});

describe('zipStream', () => {
  it('writes codes.csv, then each image in order: PNG stored as it is, SVG deflated', async () => {
    const { images } = countingImages(3, 5000);
    const stored = unzipSync(new Uint8Array(await readAll(zipStream('id\r\n', images, { deflate: false }))), {
      filter: (file) => {
        expect([file.name, file.compression]).toEqual([file.name, file.name === 'codes.csv' ? 8 : 0]);
        return true;
      },
    });
    expect(Object.keys(stored)).toEqual(['codes.csv', 'code 0.png', 'code 1.png', 'code 2.png']);
    expect(stored['code 1.png']).toEqual(new Uint8Array(5000).fill(1));
    const compressions: number[] = [];
    unzipSync(
      new Uint8Array(await readAll(zipStream('id\r\n', countingImages(2).images, { deflate: true }))),
      {
        filter: (file) => {
          compressions.push(file.compression);
          return false;
        },
      },
    );
    expect(compressions).toEqual([8, 8, 8]);
  });

  it('sends its first bytes before rendering the images, and never renders far ahead of the reader', async () => {
    const { images, state } = countingImages(50, 400 * 1024);
    const stream = zipStream('id,name,short_url\r\n', images, { deflate: false });
    const [first] = (await once(stream, 'data')) as [Buffer];
    expect(first.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(state.rendered).toBeLessThan(50);
    stream.pause();
    await pause(300);
    // About two megabytes wait for the reader (the stream's buffers): a few images, not all 50; one
    // being rendered when the reader stopped may still finish.
    const waiting = state.rendered;
    expect(waiting).toBeLessThan(12);
    await pause(200);
    expect(state.rendered).toBeLessThanOrEqual(waiting + 1);
    stream.resume();
    await readAll(stream);
    expect(state.rendered).toBe(50);
  });

  it('stops rendering when the download is cancelled', async () => {
    const { images, state } = countingImages(200, 100, 5);
    const stream = zipStream('id\r\n', images, { deflate: false });
    await once(stream, 'data');
    stream.destroy();
    await pause(50);
    const atCancel = state.rendered;
    await pause(200);
    expect(state.rendered - atCancel).toBeLessThanOrEqual(1);
    expect(state.rendered).toBeLessThan(50);
  });

  it('ends in an error, not a truncated file, when an image cannot be rendered', async () => {
    const images: ArchiveImage[] = [
      { fileName: 'a.png', render: () => Promise.resolve(new Uint8Array(10)) },
      { fileName: 'b.png', render: () => Promise.reject(new Error('render failed')) },
    ];
    await expect(readAll(zipStream('id\r\n', images, { deflate: false }))).rejects.toThrow('render failed');
  });
});

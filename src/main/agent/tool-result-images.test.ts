import { expect, test } from 'vitest';
import { toolResultImages } from './tool-result-images.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test("a tool's images are checked: a real one passes, a fake, mislabelled or broken one becomes a note saying why", () => {
  expect(
    toolResultImages([
      { data: PNG, mimeType: 'image/png' },
      { data: Buffer.from('not a picture').toString('base64'), mimeType: 'image/png' },
      { data: PNG, mimeType: 'image/gif' },
      { data: 'not base64!', mimeType: 'image/png' },
    ]),
  ).toEqual([
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { type: 'text', text: "[image left out: Image 2 of the result is not a PNG, JPEG, WebP or GIF image (its bytes are not an image's).]" },
    { type: 'text', text: '[image left out: Image 3 of the result says it is image/gif but its bytes are image/png.]' },
    { type: 'text', text: '[image left out: Image 4 of the result is not valid base64 data.]' },
  ]);
  expect(toolResultImages(undefined)).toEqual([]);
});

import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { writeContentFolder } from '#test/content-folder';
import { listImageFiles, storedFilesOf, uploadsShownBy } from './content-images.js';

// The images a content folder carries: which a post shows, which files they are in the store,
// and which files of a folder's images/ an import may put back under /uploads/.

const ID = 'abcdefghij0123456789';

describe("a content folder's images", () => {
  it('finds every upload a post shows, its feature image and those in its body, once each', () => {
    const shown = uploadsShownBy({
      featureImage: `/uploads/${ID}-1600x900.webp`,
      body:
        `![A chart](/uploads/${ID}-640x400.webp "Caption")\n\n` +
        `[the full size](/uploads/${ID}-1600x900.webp) and /uploads/not-an-upload.png`,
    });
    expect(shown).toEqual([`/uploads/${ID}-1600x900.webp`, `/uploads/${ID}-640x400.webp`]);
    // Every copy the store keeps: each width in WebP, and AVIF up to 1600 wide.
    expect(storedFilesOf([`/uploads/${ID}-1600x900.webp`])).toEqual([
      `${ID}-1600x900.avif`,
      `${ID}-1600x900.webp`,
      `${ID}-480x270.avif`,
      `${ID}-480x270.webp`,
      `${ID}-960x540.avif`,
      `${ID}-960x540.webp`,
    ]);
  });

  it('takes only files named as an upload’s copies that are the image their name says', async () => {
    const webp = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .webp()
      .toBuffer();
    const folder = await writeContentFolder({
      [`images/${ID}-8x8.webp`]: '',
      [`images/${ID}-8x8.avif`]: '',
      [`images/${ID}-9x9.webp`]: '<html><script>alert(1)</script></html>',
      'images/cover.png': '',
    });
    try {
      // writeContentFolder writes text: the real image's bytes go in as they are.
      await writeFile(join(folder.dir, `images/${ID}-8x8.webp`), webp);
      await writeFile(join(folder.dir, `images/${ID}-8x8.avif`), webp);
      const { names, issues } = await listImageFiles(folder.dir);
      expect(names).toEqual([`${ID}-8x8.webp`]);
      const name = basename(folder.dir);
      expect(issues).toEqual([
        {
          file: `${name}/images/${ID}-8x8.avif`,
          field: 'bytes',
          message: 'are not the AVIF image the name says (webp)',
        },
        {
          file: `${name}/images/${ID}-9x9.webp`,
          field: 'bytes',
          message: 'are not the WebP image the name says (unknown)',
        },
        {
          file: `${name}/images/cover.png`,
          field: 'name',
          message: "is not an uploaded image's copy (<id>-<width>x<height>.avif or .webp)",
        },
      ]);
    } finally {
      await folder.remove();
    }
  });

  it('answers no files for a folder without images/', async () => {
    const folder = await writeContentFolder({ 'articles/.keep': '' });
    try {
      expect(await listImageFiles(folder.dir)).toEqual({ names: [], issues: [] });
    } finally {
      await folder.remove();
    }
  });
});

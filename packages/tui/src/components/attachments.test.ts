import { describe, expect, it } from 'vitest';
import { describeAttachment } from './attachments.js';

describe('describeAttachment', () => {
  it('names an image or resource by the decoded file name of its URI, sanitised', () => {
    const image = (uri: string) =>
      describeAttachment({ type: 'image', data: 'AAAA', mimeType: 'image/png', uri });
    expect(image('file:///w/Screen%20Shot%201.png')?.label).toBe('Screen Shot 1.png');
    expect(image('file:///w/%1b%5b31mred.png')?.label).toBe('red.png');
    expect(image('file:///w/bad%E0%A4%A.png')?.label).toBe('bad%E0%A4%A.png');
    expect(
      describeAttachment({ type: 'resource', resource: { uri: 'file:///w/my%20notes.md', text: 'a' } })
        ?.label,
    ).toBe('my notes.md');
  });
});

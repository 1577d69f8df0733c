import type { ReactNode } from 'react';
import { Text } from 'ink';
import type { Token } from 'marked';
import type { Theme } from '../theme/theme.js';
import { asKnownToken, displayCode, displayText, inlinePlainText, linkSuffix } from './text-utils.js';

/**
 * Renders inline tokens (emphasis, strong, code spans, links…) as nested Ink `<Text>` nodes.
 * Links show their label and URL as text; no OSC 8 hyperlink is ever emitted.
 */
export function renderInline(tokens: readonly Token[] | undefined, theme: Theme): ReactNode[] {
  if (!tokens) return [];
  return tokens.map((raw, index) => renderOne(raw, theme, index));
}

function renderOne(raw: Token, theme: Theme, key: number): ReactNode {
  const token = asKnownToken(raw);
  if (!token) return displayText(raw.raw);
  switch (token.type) {
    case 'strong':
      return (
        <Text key={key} bold>
          {renderInline(token.tokens, theme)}
        </Text>
      );
    case 'em':
      return (
        <Text key={key} italic>
          {renderInline(token.tokens, theme)}
        </Text>
      );
    case 'del':
      return (
        <Text key={key} strikethrough>
          {renderInline(token.tokens, theme)}
        </Text>
      );
    case 'codespan':
      return (
        <Text key={key} color={theme.text.code}>
          {displayCode(token.text)}
        </Text>
      );
    case 'br':
      return '\n';
    case 'link': {
      const label = inlinePlainText(token.tokens);
      return (
        <Text key={key}>
          <Text color={theme.text.link} underline>
            {renderInline(token.tokens, theme)}
          </Text>
          <Text color={theme.text.muted}>{linkSuffix(label, token.href)}</Text>
        </Text>
      );
    }
    case 'image':
      return (
        <Text key={key} color={theme.text.muted}>
          {`[image: ${displayText(token.text)}]${linkSuffix('', token.href)}`}
        </Text>
      );
    case 'text':
      return token.tokens ? (
        <Text key={key}>{renderInline(token.tokens, theme)}</Text>
      ) : (
        displayText(token.text)
      );
    case 'escape':
    case 'html':
      return displayText(token.text);
    case 'checkbox':
      return null;
    default:
      return displayText(token.raw);
  }
}

import { Text } from 'ink';
import { useTheme } from '../theme/ThemeContext.js';
import { codeSpans } from './code-spans.js';

/** Props of {@link InlineCode}. */
export interface InlineCodeProps {
  /** Sanitized text that may hold Markdown code spans (`ls -la`). */
  readonly text: string;
}

/**
 * One line of agent or catalog text with its Markdown code spans shown as code: without their
 * backticks, in the accent colour. Titles, option names, notices and hints come with them
 * (``Run `ls -la` ``, "installs the `goose` command") and read wrong with the backticks raw.
 * Render it inside a `<Text>`, which sets the colour of the rest.
 *
 * @example
 * <Text bold><InlineCode text={sanitizeInline(call.title)} /></Text>
 */
export function InlineCode({ text }: InlineCodeProps) {
  const theme = useTheme();
  if (!text.includes('`')) return <>{text}</>;
  return (
    <>
      {codeSpans(text).map((piece, i) =>
        piece.code ? (
          <Text key={i} color={theme.text.accent}>
            {piece.text}
          </Text>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}

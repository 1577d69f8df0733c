import { describe, expect, it } from 'vitest';
import { buildMessage, buildResponse, scanFrame, spanText } from './frame-scan.js';

describe('scanFrame', () => {
  it('finds the routing fields and where the payload sits, without decoding it', () => {
    const text =
      ' {"jsonrpc":"2.0", "id" : "a\\"b", "method":"x\\/y","params":{"s":"}\\\\","n":[1.50,-2e3,true,null]},"_meta":{}} ';
    const frame = scanFrame(text);
    expect(frame).toMatchObject({ method: 'x/y', idText: '"a\\"b"', jsonrpcText: '"2.0"', otherKeys: true });
    expect(spanText(frame!, frame!.params!)).toBe('{"s":"}\\\\","n":[1.50,-2e3,true,null]}');
    expect(buildMessage('7', '"x/y"', spanText(frame!, frame!.params!))).toBe(
      '{"jsonrpc":"2.0","id":7,"method":"x/y","params":{"s":"}\\\\","n":[1.50,-2e3,true,null]}}',
    );
    const answer = scanFrame('{"id":3,"jsonrpc":"2.0","error":{"code":-1,"message":"no"}}');
    expect(buildResponse('"q"', answer!)).toBe(
      '{"jsonrpc":"2.0","id":"q","error":{"code":-1,"message":"no"}}',
    );
  });

  it('turns down what is not one well-formed object', () => {
    for (const text of [
      '[{"jsonrpc":"2.0","method":"x"}]',
      '{"method":"x"',
      '{"method":"x"} {}',
      '{"method":1}',
      '{"method":"x","params":{"a":tru}}',
      '{"method":"x","params":{"a":"b}}',
      '{"method":"x","params":{"a":[1}}',
      '{"method" "x"}',
      'not json',
    ]) {
      expect(scanFrame(text), text).toBeUndefined();
    }
  });
});

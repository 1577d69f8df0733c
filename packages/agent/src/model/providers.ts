/** AI SDK language models for configured providers. */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ModelSettings, ProviderSettings } from '../config/settings.js';

/**
 * The AI SDK model for `model` on `provider`. OpenAI goes through Chat Completions, like every
 * OpenAI-compatible server, so one wire format covers OpenAI, OpenRouter, Ollama, vLLM, llama.cpp
 * and LM Studio.
 *
 * @example
 * const lm = languageModel({ id: 'ollama', type: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' }, model);
 */
export function languageModel(provider: ProviderSettings, model: ModelSettings): LanguageModel {
  switch (provider.type) {
    case 'anthropic':
      return createAnthropic({
        apiKey: provider.apiKey,
        baseURL: provider.baseUrl,
        headers: provider.headers,
      })(model.model);
    case 'openai':
      return createOpenAI({
        apiKey: provider.apiKey,
        baseURL: provider.baseUrl,
        headers: provider.headers,
      }).chat(model.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: provider.id,
        baseURL: provider.baseUrl ?? '',
        apiKey: provider.apiKey,
        headers: provider.headers,
        includeUsage: true,
      })(model.model);
  }
}

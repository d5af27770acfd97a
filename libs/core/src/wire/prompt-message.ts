import type { AudioContent, EmbeddedResource, ImageContent, ResourceLink, TextContent } from '@modelcontextprotocol/server';

/** What one prompt message may hold. */
export type PromptContent = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: PromptContent;
}

/** What a `@Prompt` method returns: one user message as text, one message, or the messages in order. */
export type PromptOutput = string | PromptMessage | readonly PromptMessage[];

/** A message from the user: `userMessage('Summarise this:')`, `userMessage(image(png, 'image/png'))`. */
export function userMessage(content: string | PromptContent): PromptMessage {
  return { role: 'user', content: typeof content === 'string' ? { type: 'text', text: content } : content };
}

/** A message from the assistant, e.g. to prime the answer. */
export function assistantMessage(content: string | PromptContent): PromptMessage {
  return { role: 'assistant', content: typeof content === 'string' ? { type: 'text', text: content } : content };
}

/**
 * Whether an entry counts as one of a conversation's messages, wherever a count is shown (the sidebar's
 * "N messages", the tree's summary): the user's and the model's messages in every branch. Tool results
 * belong to the model's message that called for them; compactions, summaries and labels are not messages.
 */
export function countsAsMessage(type: string, role: string | null | undefined): boolean {
  return type === 'message' && role !== 'toolResult';
}

/** What a shown message count means, said where it is shown (a tooltip). */
export const MESSAGE_COUNT_MEANING = 'Your messages and the model’s, in every branch of the conversation (tool results not counted)';

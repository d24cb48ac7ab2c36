// Projects: named workspace folders with their own instructions and defaults for new conversations.
export { ProjectService, type ProjectChangeEvent, type ProjectDefaults, type ProjectServiceOptions } from './project-service.ts';
export { joinProject, newConversation, newProjectConversation, type ProjectConversationCore } from './new-project-conversation.ts';

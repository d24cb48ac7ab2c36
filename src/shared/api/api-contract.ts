import { z } from 'zod';
import { AgentEvent, ApprovalAnswer, ApprovalQuestion, ApprovalScope, ApprovalTimeoutSeconds, PolicyMode, ThinkingLevel } from '../agent/index.ts';
import { Project, ProjectChange, ProjectCreate, ProjectId } from '../projects/index.ts';
import { BlobHash, SessionSummary, TranscriptPage, TreeBranchPage, TreeNode, TreeOverviewPage } from '../sessions/index.ts';
import { Attachment, MAX_ATTACHMENTS } from '../attachments/index.ts';
import { CommandResult, CommandView, Completion } from '../commands/index.ts';
import { AllowanceView, PanelView, WalletListing, WalletView } from './panels-api.ts';
import { PluginConfigChanges, PluginConfigView, PluginListing, PluginView, PolicyView } from './settings-api.ts';
import { StatusBarView } from './status-api.ts';
import { SandboxGet, SandboxSetNetwork, SandboxView } from './sandbox-api.ts';
import { PlanGet, PlanSettings, PlanView } from '../plan/index.ts';
import {
  McpListing,
  McpSignInPage,
  McpReadResource,
  McpResourceList,
  McpResourceText,
  McpSaveServer,
  McpServerDetails,
  McpServerName,
  McpServerTool,
  McpSetTrust,
  McpTestResult,
  McpTrust,
} from './mcp-api.ts';
import { CHANNEL_NAMES, type ChannelName, EVENT_NAME_LIST, type EventNameOf } from './api-names.ts';
import { ConversationSettings, ModelChoice, ModelList, ModelsRefreshed } from './models-api.ts';
import { SubagentSettings, SubagentTranscript, SubagentView } from '../subagents/index.ts';
import { SkillListing } from '../skills/index.ts';
import { ProviderConnectionId, ProviderConnectionView } from './providers-api.ts';
import { PluginLogs } from './plugin-logs-api.ts';
import { ContextMasking, ContextView } from './context-api.ts';
import { EvalDetail, EvalListing } from './evals-api.ts';
import {
  MissedRunsNotice,
  ScheduledRun,
  ScheduledRunEnded,
  ScheduledTask,
  ScheduledTaskInput,
  ScheduledTaskList,
  ScheduledTaskUpdate,
  TaskId,
} from '../schedule/index.ts';
import { OfferedToolList } from '../tools/index.ts';
import { ElicitationAnswer, ElicitationQuestion } from '../elicitation/index.ts';

// The one contract between renderer and main. Channels are `domain.verb`, events `domain.pastTense`.
// Main parses every input with these schemas; the renderer parses every output and event on arrival.

const SessionId = z.string().min(1).max(128);
const EntryId = z.string().min(1).max(128);
const Nothing = z.object({}).strict();
/** A saved connection's id: as the accounts store them (never a slash: `/model account/model` splits there). */
const ProviderAccountId = z.string().regex(/^[a-z0-9_-]{1,40}$/, 'A connection id is 1 to 40 lowercase letters, digits, _ or -.');

export const Health = z.object({ ok: z.literal(true), schemaVersion: z.number().int(), sessions: z.number().int(), dataDir: z.string() });
export type Health = z.infer<typeof Health>;

/** A message queued for a streaming run (`chat.steer`, `chat.followUp`): words or an attachment at least, as `chat.send`'s. */
const QueuedMessage = z
  .object({ sessionId: SessionId, text: z.string().max(200_000), attachments: z.array(Attachment).max(MAX_ATTACHMENTS).optional() })
  .refine((m) => m.text !== '' || (m.attachments?.length ?? 0) > 0, { message: 'A message needs words or an attachment.', path: ['text'] });

/** What the window needs to open where the user left off. */
export const Bootstrap = z.object({
  health: Health,
  lastSessionId: z.string().nullable(),
  /** False until a provider is set up: the window shows the first-run screen. */
  providerConfigured: z.boolean(),
});
export type Bootstrap = z.infer<typeof Bootstrap>;

export const SessionList = z.object({ sessions: z.array(SessionSummary), total: z.number().int().nonnegative() });
export type SessionList = z.infer<typeof SessionList>;

/** What tells one version from its siblings: its words' preview, when it was written, and a reply's model. */
export const SiblingVersion = z.object({ preview: z.string(), at: z.number().optional(), model: z.string().optional() });
export type SiblingVersion = z.infer<typeof SiblingVersion>;
/** Sibling groups of the entries asked about; entries without siblings are left out. */
export const SiblingMap = z.record(
  z.string(),
  z.object({ ids: z.array(z.string()), index: z.number().int(), /** In the order of `ids`. */ versions: z.array(SiblingVersion).optional() }),
);
export type SiblingMap = z.infer<typeof SiblingMap>;

export const ProviderPresetView = z.object({
  id: z.string(),
  providerId: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  /** The wire dialect ('openai-compatible', 'anthropic', …). */
  dialect: z.string(),
  /** The preset's flavor, passed back on save. */
  flavor: z.string(),
  needsKey: z.boolean(),
  detected: z.boolean(),
});
export type ProviderPresetView = z.infer<typeof ProviderPresetView>;

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });
type MethodSpec = { input: z.ZodType; output: z.ZodType };

export const API_METHODS = {
  'app.bootstrap': method(Nothing, Bootstrap),
  'sessions.list': method(
    z.object({
      query: z.string().max(500).optional(),
      limit: z.number().int().min(1).max(10_000).optional(),
      offset: z.number().int().min(0).optional(),
      /** Only the conversations of this project (whose folder is its folder). */
      projectId: ProjectId.optional(),
    }),
    SessionList,
  ),
  'sessions.get': method(z.object({ sessionId: SessionId }), SessionSummary),
  /** `projectId`: started in the project (its folder, model, thinking level and policy mode); `cwd` is then not given. */
  'sessions.create': method(
    z.object({ title: z.string().max(200).optional(), cwd: z.string().max(4096).nullable().optional(), projectId: ProjectId.optional() }),
    SessionSummary,
  ),
  /** Marks the session as the one the window shows, so a restart opens it again. */
  'sessions.open': method(z.object({ sessionId: SessionId }), SessionSummary),
  'sessions.rename': method(z.object({ sessionId: SessionId, title: z.string().min(1).max(200) }), SessionSummary),
  /** Deletes at once; `sessions.restore` brings it back for a short while (undo). */
  'sessions.delete': method(z.object({ sessionId: SessionId }), z.object({ restorable: z.boolean() })),
  'sessions.restore': method(z.object({ sessionId: SessionId }), SessionSummary),
  'sessions.page': method(
    z.object({ sessionId: SessionId, before: EntryId.nullable().optional(), limit: z.number().int().min(1).max(1000).optional() }),
    TranscriptPage,
  ),
  'sessions.tree': method(z.object({ sessionId: SessionId }), z.object({ nodes: z.array(TreeNode), leafId: z.string().nullable() })),
  /** A page of the tree overview along the active branch, from `before` (default: the leaf) upward, no payloads. */
  'sessions.treePage': method(
    z.object({ sessionId: SessionId, before: EntryId.nullable().optional(), limit: z.number().int().min(1).max(2000).optional() }),
    TreeOverviewPage,
  ),
  /** A page of a branch read down from `from` (inclusive) along the newest child: a branch the leaf is not on, opened. */
  'sessions.treeBranch': method(z.object({ sessionId: SessionId, from: EntryId, limit: z.number().int().min(1).max(2000).optional() }), TreeBranchPage),
  'sessions.siblings': method(z.object({ sessionId: SessionId, entryIds: z.array(EntryId).max(2000) }), SiblingMap),
  /**
   * Moves the leaf. `follow: 'newest'` descends from the entry to its newest leaf (switching to a sibling
   * branch); 'exact' stops at the entry (the next message forks there).
   */
  'sessions.branch': method(
    z.object({ sessionId: SessionId, entryId: EntryId.nullable(), follow: z.enum(['exact', 'newest']).default('exact') }),
    z.object({ leafId: z.string().nullable() }),
  ),
  /** Sets the conversation's workspace folder (checked by main: a refusal says why). */
  /** `create`: make the folder first when it does not exist (the window asked the user); a missing folder is otherwise `not_found`. */
  'sessions.setWorkspace': method(z.object({ sessionId: SessionId, path: z.string().min(1).max(4096), create: z.boolean().optional() }), SessionSummary),
  'entries.label': method(
    z.object({ sessionId: SessionId, targetId: EntryId, label: z.string().max(100).nullable() }),
    z.object({ leafId: z.string().nullable() }),
  ),
  /** Sends a user message. With `parentId`, the message forks there (editing an earlier message). */
  /** `attachments`: images (PNG, JPEG, WebP, GIF) as data URLs, scaled down by the window, and text files; words or an attachment at least. */
  'chat.send': method(
    z
      .object({
        sessionId: SessionId,
        text: z.string().max(200_000),
        parentId: EntryId.nullable().optional(),
        attachments: z.array(Attachment).max(MAX_ATTACHMENTS).optional(),
      })
      .refine((m) => m.text !== '' || (m.attachments?.length ?? 0) > 0, { message: 'A message needs words or an attachment.', path: ['text'] }),
    z.object({ runId: z.string() }),
  ),
  /** Runs the model again from `entryId`'s parent: a sibling reply. */
  'chat.regenerate': method(z.object({ sessionId: SessionId, entryId: EntryId }), z.object({ runId: z.string() })),
  'chat.abort': method(z.object({ sessionId: SessionId }), z.object({ aborted: z.boolean() })),
  /** A message for the streaming run, with attachments as `chat.send` takes them: steered in after the tool round, or followed up when it would stop. */
  'chat.steer': method(QueuedMessage, z.object({ queued: z.boolean() })),
  'chat.followUp': method(QueuedMessage, z.object({ queued: z.boolean() })),
  /** The system message and tool list of the conversation's last model request (since the app started), or null. */
  'chat.lastPrompt': method(
    z.object({ sessionId: SessionId }),
    z
      .object({
        systemPrompt: z.string(),
        tools: z.array(z.object({ name: z.string(), description: z.string(), readOnly: z.boolean() })),
        /** The messages sent, each as its role and its text (tool calls and results written out). */
        messages: z.array(z.object({ role: z.string(), text: z.string() })).optional(),
        at: z.number(),
      })
      .nullable(),
  ),
  /** The model of the conversation's branch, and every model the set-up providers offer. */
  'chat.models': method(
    z.object({ sessionId: SessionId }),
    z.object({
      current: z.object({ provider: z.string(), modelId: z.string() }).nullable(),
      models: z.array(ModelChoice),
    }),
  ),
  /** The same models as `chat.models`, grouped by account, for forms that need no conversation (a scheduled task's, a project's). */
  'models.list': method(Nothing, ModelList),
  /** Records a model change on the branch; the next reply uses it. */
  'chat.setModel': method(
    z.object({ sessionId: SessionId, provider: z.string().min(1).max(100), modelId: z.string().min(1).max(200) }),
    z.object({ current: z.object({ provider: z.string(), modelId: z.string() }) }),
  ),
  /** The thinking level of the conversation's current branch. */
  'chat.getThinking': method(z.object({ sessionId: SessionId }), z.object({ level: ThinkingLevel })),
  /** Records a thinking level change on the branch (so each branch keeps its own); the next reply uses it. */
  /** `level` is checked by main as `/thinking` checks it (any case): the same sentence for the same bad level. */
  'chat.setThinking': method(z.object({ sessionId: SessionId, level: z.string().max(64) }), z.object({ level: ThinkingLevel })),
  /** The user's own instructions to the model: for every conversation, and for this one. */
  'instructions.get': method(z.object({ sessionId: SessionId.nullable().optional() }), z.object({ global: z.string(), conversation: z.string() })),
  /** Sets them for every conversation (`sessionId` null) or for one; empty text clears them. */
  'instructions.set': method(
    z.object({ sessionId: SessionId.nullable(), text: z.string().max(20_000) }),
    z.object({ global: z.string(), conversation: z.string() }),
  ),
  /** Questions still waiting for an answer (a reloaded window asks them again). */
  'approvals.list': method(Nothing, z.array(ApprovalQuestion)),
  /** `scope` says where an "always" answer holds: the conversation's workspace folder (default) or everywhere. */
  'approvals.answer': method(
    z.object({ questionId: z.string().min(1).max(200), answer: ApprovalAnswer, scope: ApprovalScope.optional() }),
    z.object({ ok: z.boolean() }),
  ),
  /** Where a model can come from: each active provider plugin's presets; `detected` when a local server answered. */
  'providers.presets': method(Nothing, z.array(ProviderPresetView)),
  /**
   * "Test connection": the dialect's provider plugin lists the endpoint's models (`flavor`: the preset's id).
   * Fails with `unavailable` when that plugin is off.
   */
  'providers.test': method(
    z.object({
      baseUrl: z.url().max(2000),
      apiKey: z.string().max(2000).optional(),
      dialect: z.string().max(50).optional(),
      flavor: z.string().max(50).optional(),
    }),
    z.object({ ok: z.boolean(), models: z.array(z.string()), message: z.string() }),
  ),
  /**
   * Stores the provider plugin's connection settings and makes `model` the default for new conversations.
   * A base URL moved to another origin without a new key clears the stored key: `keyCleared`, and `notice` says so.
   */
  'providers.save': method(
    z.object({
      providerId: z.string().min(1).max(100),
      baseUrl: z.url().max(2000),
      apiKey: z.string().max(2000).optional(),
      model: z.string().min(1).max(200),
      flavor: z.string().max(50).optional(),
      /** Every model the connection test listed: all are offered in the model picker, not only `model`. */
      models: z.array(z.string().min(1).max(200)).max(2000).optional(),
      /** The saved connection to change (its id); absent: a new one when `name` is given, else the preset's own. */
      accountId: ProviderAccountId.optional(),
      /** The connection's name (the model picker's group, `/model name/model`): unique, no slash. */
      name: z.string().max(200).optional(),
    }),
    z.object({ ok: z.literal(true), keyCleared: z.boolean(), notice: z.string().optional(), accountId: z.string().optional() }),
  ),
  /** "Refresh models": asks each saved connection's server for its models again, and offers what it lists. */
  'providers.refreshModels': method(Nothing, ModelsRefreshed),
  /** The saved connections, one per model server: name, address, models, whether a key is stored. */
  'providers.connections': method(Nothing, z.array(ProviderConnectionView)),
  /** "Test" on a saved connection: lists its server's models with the stored key; `message` says why it failed. */
  'providers.testConnection': method(ProviderConnectionId, z.object({ ok: z.boolean(), models: z.array(z.string()), message: z.string() })),
  /** Removes a saved connection and its stored key; its plugin stops offering its models at once. */
  'providers.remove': method(ProviderConnectionId, z.object({ ok: z.literal(true) })),
  // Settings: plugins (live on/off, the user plugin folder) and the tool policy.
  'plugins.list': method(Nothing, PluginListing),
  /**
   * Turns a plugin on or off at once, no restart; resolves when it has settled (Active, Failed, …). The
   * first switch-on of a user plugin needs `confirm: true` (the user read what it may do); else `denied`.
   */
  'plugins.setState': method(z.object({ id: z.string().min(1).max(64), enabled: z.boolean(), confirm: z.boolean().optional() }), PluginView),
  /**
   * Where a user plugin runs: `own` process (the default) or `shared` with the other user plugins the user
   * grouped; a running plugin restarts there. `invalid_input` for a bundled plugin (its manifest decides).
   */
  'plugins.setProcess': method(z.object({ id: z.string().min(1).max(64), process: z.enum(['own', 'shared']) }).strict(), PluginView),
  /** A plugin's settings and the schema its manifest declares; `invalid_input` when it declares none. */
  'plugins.getConfig': method(z.object({ id: z.string().min(1).max(64) }).strict(), PluginConfigView),
  /**
   * Changes some of a plugin's settings, checked against its schema (nothing is stored unless all fit);
   * a plugin that is on is started again with them. Resolves with the settings as now stored.
   */
  'plugins.setConfig': method(z.object({ id: z.string().min(1).max(64), values: PluginConfigChanges }).strict(), PluginConfigView),
  /** Looks in the user plugin folder again; new plugins are listed (and started when on). */
  'plugins.rescan': method(Nothing, PluginListing),
  /** Opens the user plugin folder with the system's file manager where there is one (`opened`); else only names it. */
  'plugins.openFolder': method(Nothing, z.object({ folder: z.string(), opened: z.boolean() })),
  /** A plugin's newest log lines (PLUGIN_LOG_LINES_SHOWN at most), for Settings → Advanced. */
  'plugins.logs': method(z.object({ id: z.string().min(1).max(64) }), PluginLogs),
  /** The status bar: the session's core segments and every plugin segment, highest priority first. */
  'status.list': method(z.object({ sessionId: SessionId.nullable().optional() }), StatusBarView),
  'panels.list': method(Nothing, z.array(PanelView)),
  /** Runs a panel's action in the plugin that contributes it. */
  /**
   * The window shows this panel: a plugin that starts when its panel is opened (`onPanel`) starts now.
   * `started` says whether its plugin runs; an unknown panel is not an error (it may have just gone).
   */
  'panels.opened': method(z.object({ panelId: z.string().min(1).max(128) }).strict(), z.object({ started: z.boolean() })),
  'panels.action': method(z.object({ panelId: z.string().min(1).max(128), actionId: z.string().min(1).max(128) }), z.object({ ok: z.literal(true) })),
  'wallets.list': method(Nothing, WalletListing),
  /** Asks the wallet's plugin for the balance now; a failure comes back in `error`. */
  'wallets.refresh': method(z.object({ id: z.string().min(1).max(128) }), WalletView),
  /** Below `threshold` a wallet shows a warning; null turns the warning off. Persisted. */
  'wallets.setThreshold': method(z.object({ threshold: z.number().nonnegative().max(1e9).nullable() }), WalletListing),
  'allowances.list': method(Nothing, z.array(AllowanceView)),
  /** The command tree (built-ins, feeds, plugin commands) for the palette. */
  'commands.list': method(Nothing, z.array(CommandView)),
  'commands.complete': method(z.object({ input: z.string().max(2000) }), z.array(Completion)),
  /** Runs a slash command; `openSessionId` when the window should switch (/new). Errors come back as a result. */
  'commands.run': method(
    z.object({ input: z.string().min(1).max(20_000), sessionId: SessionId.nullable().optional() }),
    z.object({ result: CommandResult, openSessionId: z.string().nullable() }),
  ),
  'policy.get': method(z.object({ sessionId: SessionId.nullable().optional() }), PolicyView),
  'policy.setMode': method(z.object({ sessionId: SessionId, mode: PolicyMode }), PolicyView),
  /** Removes a stored rule by its id; `not_found` when there is none (another window removed it). */
  'policy.removeRule': method(z.object({ id: z.string().min(1).max(100), sessionId: SessionId.nullable().optional() }).strict(), PolicyView),
  /** How long a question waits before it is denied as timed out, in seconds; null: it waits until answered. */
  'policy.setApprovalTimeout': method(
    z.object({ seconds: ApprovalTimeoutSeconds.nullable(), sessionId: SessionId.nullable().optional() }).strict(),
    PolicyView,
  ),
  /** Existing folders that complete a typed path (`~` is the home folder), for the folder field. */
  'workspace.complete': method(z.object({ input: z.string().max(4096) }), z.object({ folders: z.array(z.string()) })),
  /** The folders chosen last for conversations (newest first) that can still be used. */
  'workspace.recent': method(Nothing, z.object({ folders: z.array(z.string()) })),
  /**
   * Asks with the system's folder picker and sets the chosen folder (`path`; null when cancelled).
   * `supported` is false where there is no picker (the headless shell): the window then shows a path field.
   */
  'workspace.pick': method(z.object({ sessionId: SessionId }), z.object({ supported: z.boolean(), session: SessionSummary.nullable() })),
  /** Conversations whose tool calls wait for a folder to be chosen. */
  'workspace.pending': method(Nothing, z.array(z.object({ sessionId: z.string() }))),
  /** No folder is chosen: the waiting tool calls are denied. */
  'workspace.decline': method(z.object({ sessionId: SessionId }), z.object({ ok: z.boolean() })),
  /** Confirms (or revokes) that a user plugin's read-only tools only read; until then they count as write tools. */
  'policy.confirmReadOnly': method(
    z.object({
      pluginId: z.string().regex(/^[a-z0-9_]{1,64}$/, 'a plugin id is lower-case letters, digits and _'),
      confirmed: z.boolean(),
      sessionId: SessionId.nullable().optional(),
    }),
    PolicyView,
  ),
  /** MCP servers: their state, import of an `mcpServers` JSON document, on/off, removal and restart. */
  'mcp.list': method(Nothing, McpListing),
  'mcp.import': method(
    z.object({
      json: z
        .string()
        .min(1)
        .max(1024 * 1024),
    }),
    McpListing,
  ),
  'mcp.setEnabled': method(z.object({ name: McpServerName, enabled: z.boolean() }), McpListing),
  'mcp.remove': method(z.object({ name: McpServerName }), McpListing),
  'mcp.restart': method(z.object({ name: McpServerName }), McpListing),
  /** A server added in Settings, for its Edit form (secret values are never sent back). */
  'mcp.server': method(z.object({ name: McpServerName }), McpServerDetails),
  /** Adds a server from the form, or saves an edit of one (only that server reconnects). */
  'mcp.save': method(McpSaveServer, McpListing),
  /** Which MCP servers and tools the user trusts to only read (see McpTrust). */
  'mcp.trust': method(Nothing, McpTrust),
  'mcp.setTrust': method(McpSetTrust, McpTrust),
  /** The connected servers' resources, for the composer's attach menu. */
  'mcp.resources': method(Nothing, McpResourceList),
  /** A resource's text for the user's message, cut at MAX_MCP_RESOURCE_CHARS. */
  'mcp.readResource': method(McpReadResource, McpResourceText),
  /** The form's Test button: connects the server as it would be saved, lists its tools, disconnects; nothing is saved. */
  'mcp.test': method(McpSaveServer, McpTestResult),
  /** The connected servers' tools, each with the name trust is kept by. */
  'mcp.tools': method(Nothing, z.array(McpServerTool)),
  /**
   * Starts the OAuth sign-in of an HTTP server whose row says "Sign in needed": answers the authorization page
   * for the window to open (the desktop app's window guard sends it to the system browser). The sign-in
   * finishes when the browser comes back to Amber's loopback listener; `mcp.changed` says how it went.
   */
  'mcp.signIn': method(z.object({ name: McpServerName }).strict(), McpSignInPage),
  /** Forgets a server's OAuth sign-in (the key file's tokens with it) and disconnects it. */
  'mcp.signOut': method(z.object({ name: McpServerName }).strict(), McpListing),
  /** Whether shell commands run in an OS sandbox here (and if not, why and how to fix it), and the network setting of write mode. */
  'policy.sandbox': method(SandboxGet, SandboxView),
  /** Turns the global network switch of write mode's sandbox on or off; a conversation's own choice still wins. */
  'policy.setNetwork': method(SandboxSetNetwork, SandboxView),
  /** The checklist the agent keeps with the todo tool on the conversation's current branch (empty when it has none). */
  'plan.get': method(PlanGet, PlanView),
  /** Whether the todo tool is on (Settings, Conversations and tools; /set agent.todo). */
  'plan.settings': method(Nothing, PlanSettings),
  'plan.setEnabled': method(PlanSettings, PlanSettings),
  /** Whether conversations are titled by their model after the first reply (Settings; /set conversations.autoTitle). */
  'conversations.settings': method(Nothing, ConversationSettings),
  'conversations.setAutoTitle': method(ConversationSettings, ConversationSettings),
  /**
   * The rows of the child agents of a conversation's (or one task call's) calls that are going now, for a card
   * opened mid-run; a call that has ended has its rows in its result.
   */
  'subagents.list': method(z.union([z.object({ sessionId: SessionId }), z.object({ toolCallId: z.string().min(1).max(200) })]), z.array(SubagentView)),
  /** Stops one running child agent (its row's Stop); its siblings go on. `stopped` false: it had already ended. */
  'subagents.stop': method(z.object({ childSessionId: SessionId }), z.object({ stopped: z.boolean() })),
  /** A child agent's conversation, read-only: every entry of it (its branches included) and its leaf. */
  'subagents.transcript': method(z.object({ childSessionId: SessionId }), SubagentTranscript),
  /** The task tool's switch and limits (Settings, Conversations and tools; /set agent.subagents…). */
  'subagents.settings': method(Nothing, SubagentSettings),
  'subagents.setSettings': method(SubagentSettings.partial(), SubagentSettings),
  /** How old tool output is hidden from each model request (Settings, Conversations and tools; /set context.…). */
  'context.masking': method(Nothing, ContextMasking),
  'context.setMasking': method(ContextMasking.partial(), ContextMasking),
  /** What the model sees now on the conversation's branch: kept, masked and summarised messages with token counts. */
  'context.view': method(z.object({ sessionId: SessionId }), ContextView),
  /** Branches back from the entry before a compaction of the branch, so the conversation goes on with its whole history. */
  'context.restore': method(z.object({ sessionId: SessionId, compactionId: z.string().min(1).max(128) }), z.object({ leafId: z.string().nullable() })),
  /** The evals run with `amber eval` (newest first), from their folders. */
  'evals.list': method(Nothing, z.object({ evals: z.array(EvalListing) })),
  /** One eval's scores per model and task, and a page of its runs (at most 200). */
  'evals.get': method(
    z.object({
      evalId: z.string().min(1).max(200),
      offset: z.number().int().min(0).max(10_000_000).optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
    EvalDetail,
  ),
  /** The skills (Settings, Conversations and tools; /skills): yours and, given a conversation, its workspace's. */
  'skills.list': method(z.object({ sessionId: SessionId.nullable().optional() }), SkillListing),
  /** Switches a skill on or off by name, in every conversation (also /skills on|off NAME). */
  'skills.setEnabled': method(z.object({ name: z.string().min(1).max(64), enabled: z.boolean(), sessionId: SessionId.nullable().optional() }), SkillListing),
  /** Confirms a workspace skill waiting in the conversation's workspace, as it is now (also /skills confirm NAME). */
  'skills.confirm': method(z.object({ name: z.string().min(1).max(64), sessionId: SessionId }), SkillListing),
  /** The projects (named workspace folders with their own instructions and defaults), by name. */
  'projects.list': method(Nothing, z.array(Project)),
  /** Creates a project from a folder; `conflict` when its name (any case) or its folder is another project's. */
  'projects.create': method(ProjectCreate, Project),
  /** Changes the fields given (null clears a default); moving its folder moves its conversations out of it. */
  'projects.update': method(z.object({ id: ProjectId, change: ProjectChange }).strict(), Project),
  /** Removes a project; its conversations stay, under "No project". */
  'projects.remove': method(z.object({ id: ProjectId }).strict(), z.object({ ok: z.literal(true) })),
  /** A stored image a message or a tool result names by its sha-256, as a data URL for the window to show. */
  'blobs.get': method(z.object({ hash: BlobHash }), z.object({ mimeType: z.string(), dataUrl: z.string() })),
  /** The scheduled tasks (Settings → Scheduled tasks; /schedule), each with its next run and its last runs. */
  'schedule.list': method(Nothing, ScheduledTaskList),
  /** Adds a task: a project or a folder, a prompt, a model, an RRULE-like schedule and the tools its runs may use without asking. */
  'schedule.add': method(ScheduledTaskInput, ScheduledTask),
  /** Runs a task now (its schedule is unchanged); `conflict` while a run of it is going. */
  'schedule.runNow': method(z.object({ id: TaskId }).strict(), ScheduledRun),
  'schedule.setPaused': method(z.object({ id: TaskId, paused: z.boolean() }).strict(), ScheduledTask),
  /** Deletes a task and its list of runs; the runs' conversations stay. */
  'schedule.delete': method(z.object({ id: TaskId }).strict(), z.object({ ok: z.literal(true) })),
  /** Changes a task's fields, checked as when added; paused stays as it is and its next run is worked out again. */
  'schedule.update': method(ScheduledTaskUpdate, ScheduledTask),
  /** The runs missed while Amber was closed, counted at its start: given once (the first window to ask), then null. */
  'schedule.takeMissed': method(Nothing, MissedRunsNotice.nullable()),
  /** The tools the agent can be offered, each with its plugin; a plugin's that is off is listed unavailable, with why. */
  'tools.list': method(Nothing, OfferedToolList),
  /** Forms plugins ask the user to fill (an MCP server's elicitation) still waiting (a reloaded window shows them again). */
  'elicitations.list': method(Nothing, z.array(ElicitationQuestion)),
  /**
   * Answers a form: accept with its values (checked against the form: a wrong one is `invalid_input` with a
   * sentence naming the field, and the form stays open), decline or cancel. `not_found` when it is no longer waiting.
   */
  'elicitations.answer': method(z.object({ questionId: z.string().min(1).max(128), answer: ElicitationAnswer }).strict(), z.object({ ok: z.literal(true) })),
} as const satisfies { [C in ChannelName]: MethodSpec };

export const API_EVENTS = {
  'session.created': SessionSummary,
  'session.updated': SessionSummary,
  'session.deleted': z.object({ sessionId: z.string() }),
  /**
   * The conversation's leaf moved outside a run (a branch switch, an edit or regenerate, a label, /model,
   * /thinking, /compact): what the branch shown says may have changed. A run's own appends are its agent events.
   */
  'session.leafMoved': z.object({ sessionId: z.string(), leafId: z.string().nullable() }),
  'agent.emitted': AgentEvent,
  'approval.requested': ApprovalQuestion,
  /** The question was answered (here or in another window) or its run ended: stop asking it. */
  'approval.settled': z.object({ questionId: z.string(), answer: ApprovalAnswer }),
  'plugins.changed': PluginView,
  /** A plugin's settings were changed (in a form or with /set): an open form shows them again. */
  'plugins.configChanged': z.object({ id: z.string() }),
  /**
   * The status segments changed, with the new view: `sessionId`'s whole bar, or with sessionId null (a
   * plugin's segments, every session's) the plugins' segments only, to lay beside each session's core ones.
   */
  'status.changed': StatusBarView,
  'panels.changed': z.object({ panels: z.array(PanelView) }),
  'wallets.changed': WalletListing,
  'allowances.changed': z.object({ allowances: z.array(AllowanceView) }),
  /** The command tree changed (a plugin command or a feed came or went). */
  'commands.changed': z.object({}),
  /**
   * The policy mode of `sessionId` changed, or (null) what holds for every conversation: the stored rules
   * (an "always" answer adds one), the approval timeout, the read-only confirmations.
   */
  'policy.changed': z.object({ sessionId: z.string().nullable() }),
  /** A tool call in this conversation needs a workspace folder and it has none: ask the user for one. */
  'workspace.requested': z.object({ sessionId: z.string() }),
  /** The folder was chosen or declined, or the run stopped: stop asking. */
  'workspace.settled': z.object({ sessionId: z.string() }),
  /** An MCP server connected, failed, or changed what it offers; or the servers were edited. */
  'mcp.changed': McpListing,
  /** The plan of a conversation's branch changed: the todo tool wrote one, or the branch shown is another. */
  'plan.changed': PlanView,
  /** A child agent's row changed: it started, made a model or tool call, spent, or ended. */
  'subagent.changed': SubagentView,
  /** A project was created, changed or removed, with the projects as they are now. */
  'projects.changed': z.object({ projects: z.array(Project) }),
  /** The scheduled tasks changed (added, paused, deleted, a run started or ended), with the whole list. */
  'schedule.changed': ScheduledTaskList,
  /** A scheduled run ended, done or failed: the window says so. */
  'schedule.runEnded': ScheduledRunEnded,
  /** A plugin asks the user to fill a form (on the running tool card that asked, else in a dialog). */
  'elicitation.requested': ElicitationQuestion,
  /** A form was answered (here or in another window), withdrawn by its asker, or its plugin stopped. */
  'elicitation.settled': z.object({ questionId: z.string(), action: z.enum(['accept', 'decline', 'cancel']) }),
} as const satisfies { [E in EventNameOf]: z.ZodType };

export type ApiMethods = typeof API_METHODS;
export type Channel = keyof ApiMethods;
export type ApiInput<C extends Channel> = z.input<ApiMethods[C]['input']>;
export type ApiOutput<C extends Channel> = z.output<ApiMethods[C]['output']>;
export type ApiEvents = typeof API_EVENTS;
export type EventName = keyof ApiEvents;
export type EventPayload<E extends EventName> = z.output<ApiEvents[E]>;

export const CHANNELS: readonly Channel[] = CHANNEL_NAMES;
export const EVENT_NAMES: readonly EventName[] = EVENT_NAME_LIST;

export function isChannel(name: string): name is Channel {
  return Object.hasOwn(API_METHODS, name);
}

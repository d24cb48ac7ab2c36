import { z } from 'zod';

// A form a plugin asks the user to fill (an MCP server's `elicitation/create` in form mode): its fields as the
// window draws them, what crosses from the plugin process to main (checked here), what main shows the window,
// and the user's answer. The plugin turns the server's JSON schema into these fields; main and the window
// never read a JSON schema.

export const MAX_ELICITATION_FIELDS = 50;
export const MAX_ELICITATION_OPTIONS = 100;
const Text = (max: number) => z.string().max(max);
const FieldName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a field name is 1-64 letters, digits, _, . or -');
const Option = z.object({ value: Text(500), label: Text(500) }).strict();

const Common = {
  name: FieldName,
  title: Text(200).optional(),
  description: Text(1000).optional(),
  required: z.boolean(),
};

/** One field. `choice` is one of `options`, `choices` any number of them (between `minItems` and `maxItems`). */
export const ElicitationField = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('text'),
      ...Common,
      format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
      minLength: z.number().int().nonnegative().optional(),
      maxLength: z.number().int().positive().optional(),
      default: Text(10_000).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.enum(['number', 'integer']),
      ...Common,
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      default: z.number().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('boolean'), ...Common, default: z.boolean().optional() }).strict(),
  z.object({ kind: z.literal('choice'), ...Common, options: z.array(Option).min(1).max(MAX_ELICITATION_OPTIONS), default: Text(500).optional() }).strict(),
  z
    .object({
      kind: z.literal('choices'),
      ...Common,
      options: z.array(Option).min(1).max(MAX_ELICITATION_OPTIONS),
      minItems: z.number().int().nonnegative().optional(),
      maxItems: z.number().int().positive().optional(),
      default: z.array(Text(500)).max(MAX_ELICITATION_OPTIONS).optional(),
    })
    .strict(),
]);
export type ElicitationField = z.infer<typeof ElicitationField>;

const Fields = z
  .array(ElicitationField)
  .max(MAX_ELICITATION_FIELDS, `a form has at most ${MAX_ELICITATION_FIELDS} fields`)
  .refine((fields) => new Set(fields.map((f) => f.name)).size === fields.length, 'two fields of the form have the same name');

/**
 * What a plugin sends main (HostApi.$elicit): `requestId` is the plugin's own (to withdraw it with
 * $elicitCancel), `callId` the running tool call it belongs to (as main gave it to $executeTool), if any.
 */
export const ElicitationRequest = z
  .object({
    requestId: z.string().min(1).max(128),
    /** Who asks, as the user knows it (an MCP server's name). */
    source: Text(64).min(1),
    /** Why it asks, in the asker's words. */
    message: Text(4000),
    fields: Fields,
    callId: z.string().min(1).max(128).optional(),
  })
  .strict();
export type ElicitationRequest = z.infer<typeof ElicitationRequest>;

/** A field's value as it goes back: text, a number, a boolean, or the values of several choices. */
export const ElicitationValue = z.union([Text(10_000), z.number(), z.boolean(), z.array(Text(500)).max(MAX_ELICITATION_OPTIONS)]);
export type ElicitationValue = z.infer<typeof ElicitationValue>;

/** Accept with the form's values, decline (the user says no), or cancel (the user dismissed the form). */
export const ElicitationAnswer = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.record(FieldName, ElicitationValue) }).strict(),
  z.object({ action: z.literal('decline') }).strict(),
  z.object({ action: z.literal('cancel') }).strict(),
]);
export type ElicitationAnswer = z.infer<typeof ElicitationAnswer>;

/** A form waiting for the user, as the window shows it: on the running tool card that asked, else in a dialog. */
export const ElicitationQuestion = z.object({
  id: z.string(),
  pluginId: z.string(),
  source: z.string(),
  message: z.string(),
  fields: z.array(ElicitationField),
  /** The conversation and tool of the running call that asked, when one did. */
  sessionId: z.string().optional(),
  toolName: z.string().optional(),
});
export type ElicitationQuestion = z.infer<typeof ElicitationQuestion>;

import { z } from 'zod';
import { readFrontMatter } from '../agent-definitions/index.ts';

/** A skill's name: what the model passes to the skill tool, and its folder's name. */
export const SkillName = z
  .string()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(/^[a-z0-9-]+$/, 'must use only a-z, 0-9 and -');
export type SkillName = z.infer<typeof SkillName>;

const scalar = (what: string) => z.string({ error: `must be ${what}, not a list` }).transform((s) => s.trim());

/** The front matter a SKILL.md may hold (the Agent Skills layout); any other field is refused by name. */
const SkillFrontMatter = z.strictObject({
  name: scalar('a name').pipe(SkillName),
  description: scalar('a sentence').pipe(z.string().min(1, 'must not be empty').max(1024, 'must be at most 1,024 characters')),
  // Fields of the open layout Amber reads past: they are checked to be plain text, not used.
  license: scalar('a short text').optional(),
  compatibility: scalar('a short text').optional(),
  'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
});

/** What a SKILL.md says: its name and description (listed in the system prompt) and its body (the skill tool's answer). */
export interface SkillText {
  name: string;
  description: string;
  body: string;
}

/** A SKILL.md read, or the sentence naming the file and what is wrong with it. */
export type SkillFileRead = { ok: true; skill: SkillText } | { ok: false; problem: string };

/**
 * Reads one SKILL.md: front matter (`name`, `description`) then Markdown instructions. The name must be the
 * skill folder's name. Never throws: a bad file gives a sentence naming the file and the field.
 */
export function parseSkillFile(text: string, from: { path: string; folderName: string }): SkillFileRead {
  const read = readFrontMatter(text, SkillFrontMatter, from.path, 'is not a field a SKILL.md has (name, description, license, compatibility, allowed-tools)');
  if (!read.ok) return read;
  const { fields: skill, body } = read;
  if (skill.name !== from.folderName)
    return { ok: false, problem: `${from.path}: the field name is ${skill.name}, but it must be the folder's name, ${from.folderName}.` };
  return { ok: true, skill: { name: skill.name, description: skill.description, body } };
}

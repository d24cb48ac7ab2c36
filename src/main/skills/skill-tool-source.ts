import { z } from 'zod';
import type { ToolSpec } from '../../shared/tools/index.ts';
import type { ToolSource } from '../agent/index.ts';
import type { SkillLibrary } from './skill-library.ts';

export const SKILL_TOOL = 'skill';

export const SKILL_SPEC: ToolSpec = {
  name: SKILL_TOOL,
  description: [
    'Load a skill listed under "Skills" in the system prompt: returns its instructions and the names of the other files in its folder.',
    'Load one when the task matches its description, then follow its instructions.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1, maxLength: 64, description: 'The skill name, as listed.' } },
    required: ['name'],
    additionalProperties: false,
  },
  // It reads the skill files the user put in place or confirmed: it runs in every policy mode without asking.
  readOnly: true,
};

const SkillArgs = z.object({ name: z.string().min(1).max(64) });

/**
 * The read-only `skill` tool: loads one available skill's SKILL.md body on demand (the system prompt lists
 * only names and descriptions). Listed only while some skill exists, so a user without skills sees no change;
 * an unknown or unconfirmed name is an error naming the skills that are available.
 */
export function skillToolSource(options: { skills: SkillLibrary }): ToolSource {
  return {
    list: async () => ((await options.skills.any()) ? [SKILL_SPEC] : []),
    async execute(name, args, execution) {
      if (name !== SKILL_TOOL) throw new Error(`There is no tool named ${name}.`);
      const parsed = SkillArgs.safeParse(args);
      if (!parsed.success) throw new Error('Give the skill name as listed in the system prompt: { "name": "…" }.');
      const scan = await options.skills.scan(execution.workspaceRoot);
      const on = scan.skills.filter((s) => s.enabled);
      const skill = on.find((s) => s.name === parsed.data.name);
      const available = on.length === 0 ? 'no skill is available' : `available: ${on.map((s) => s.name).join(', ')}`;
      if (scan.skills.some((s) => s.name === parsed.data.name && !s.enabled))
        throw new Error(`The skill ${parsed.data.name} is switched off by the user (Settings → Skills, or /skills on ${parsed.data.name}); ${available}.`);
      if (!skill) {
        const waiting = scan.pending.some((p) => p.skill.name === parsed.data.name);
        throw new Error(
          waiting
            ? `The skill ${parsed.data.name} of this workspace is not confirmed by the user (they can confirm it with /skills confirm ${parsed.data.name}); ${available}.`
            : `There is no skill named ${parsed.data.name}; ${available}.`,
        );
      }
      const files =
        skill.files.length === 0
          ? 'The skill folder has no other files.'
          : `Other files in the skill folder (${skill.dir}), relative to it:\n${skill.files.map((f) => `- ${f}`).join('\n')}${skill.moreFiles ? '\n(more files are not listed)' : ''}`;
      return { content: [{ type: 'text', text: `# Skill: ${skill.name}\n\n${skill.body}\n\n${files}` }], isError: false };
    },
  };
}

// The system prompt's skills section: one line per skill, and no change at all when there is none.
import { expect, test } from 'vitest';
import { buildSystemPrompt } from '../../src/main/agent/index.ts';
import { SKILL_SPEC } from '../../src/main/skills/index.ts';

const parts = {
  tools: [SKILL_SPEC],
  environment: { os: 'Linux 6', shell: 'bash', date: '2026-12-02', workspace: null, gitRoot: null },
  projectFiles: [],
  instructions: { global: '', conversation: '' },
};

test('without skills the prompt is exactly as before; with skills each is one line, its description on one line', () => {
  const before = buildSystemPrompt(parts);
  expect(buildSystemPrompt({ ...parts, skills: [] })).toBe(before);
  expect(before).not.toContain('# Skills');
  const withSkills = buildSystemPrompt({
    ...parts,
    skills: [
      { name: 'haiku', description: 'Answer\n  in a haiku.' },
      { name: 'release-notes', description: 'd'.repeat(1024) },
    ],
  });
  expect(withSkills.startsWith(before)).toBe(true);
  const section = withSkills.slice(before.length);
  expect(section.split('\n').filter((l) => l.startsWith('- '))).toEqual(['- haiku: Answer in a haiku.', `- release-notes: ${'d'.repeat(1024)}`]);
});

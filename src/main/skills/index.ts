// Skills: folders with a SKILL.md (the Agent Skills layout), the user's and the workspace's confirmed ones, loaded on demand by the skill tool.
export {
  type PendingSkill,
  type Skill,
  SKILL_FILE_LIMIT,
  SKILL_FILES_LISTED,
  SkillLibrary,
  type SkillLibraryOptions,
  type SkillScan,
  type SkillSwitches,
  type SkillSource,
  WORKSPACE_SKILLS_DIR,
} from './skill-library.ts';
export { parseSkillFile, type SkillFileRead, SkillName, type SkillText } from './skill-file.ts';
export { SKILL_SPEC, SKILL_TOOL, skillToolSource } from './skill-tool-source.ts';

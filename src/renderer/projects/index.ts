// Projects in the window: the list (kept by projects.changed), which project a folder is, and Settings' page.
export { useProjects } from './use-projects.ts';
export { projectOf } from './project-of.ts';
export { ProjectsSection } from './ProjectsSection.tsx';

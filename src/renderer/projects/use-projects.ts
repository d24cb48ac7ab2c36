import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Project } from '../../shared/projects/index.ts';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { useToasts } from '../ui/index.ts';

const NONE: Project[] = [];

/** The projects, by name, replaced by `projects.changed` whenever one is created, changed or removed. */
export function useProjects(): Project[] {
  const api = useApi();
  const toasts = useToasts();
  const { data, error } = useQuery({ queryKey: serverKeys.projects, queryFn: () => api.call('projects.list', {}) });
  useEffect(() => {
    if (error) toasts.error('Could not list the projects', error);
  }, [error, toasts]);
  return data ?? NONE;
}

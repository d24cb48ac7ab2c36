import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, type Ref, useId } from 'react';
import { useApi } from '../api/index.ts';
import { serverKeys } from '../server-state/index.ts';
import { Icon } from '../ui/index.ts';
import './folder-field.css';

const NONE: string[] = [];

export interface FolderFieldProps {
  /** The field's id (its label's `htmlFor`). */
  id?: string;
  value: string;
  onChange(path: string): void;
  inputRef?: Ref<HTMLInputElement>;
  /** Folders left out of the recent ones (the conversation's own, the projects' already listed). */
  exclude?: (folder: string) => boolean;
  invalid?: boolean;
  describedBy?: string;
  placeholder?: string;
  /** Shown between the folders that match and the recent ones (the workspace dialog's projects). */
  between?: ReactNode;
  testId: string;
  recentTestId: string;
}

/**
 * A folder path field that browses the disk as you type: main lists the existing folders that match
 * (`workspace.complete`, also a datalist; Tab takes the first), and the folders chosen last
 * (`workspace.recent`) are a click away. Used by the workspace dialog and the project form.
 */
export function FolderField({ id, value, onChange, inputRef, exclude, invalid, describedBy, placeholder, between, testId, recentTestId }: FolderFieldProps) {
  const api = useApi();
  const listId = useId();
  // The folders that match what is typed, read as it changes (on disk they change too); the last answer
  // shows until the next arrives, none after a refusal.
  const completion = useQuery({
    queryKey: serverKeys.folderCompletions(value),
    queryFn: () => api.call('workspace.complete', { input: value }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  // The folder already typed is not offered again.
  const folders = (completion.isError ? NONE : (completion.data?.folders ?? NONE)).filter((f) => f !== value && `${f}/` !== value);
  const recent = useQuery({ queryKey: serverKeys.recentFolders, queryFn: () => api.call('workspace.recent', {}), staleTime: 0 }).data?.folders ?? NONE;
  const recentShown = recent.filter((f) => !exclude?.(f)).slice(0, 5);
  return (
    <>
      <input
        id={id}
        ref={inputRef}
        className="input mono"
        value={value}
        list={listId}
        spellCheck={false}
        placeholder={placeholder}
        autoComplete="off"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Tab takes the first completion while there is one to take.
          if (e.key === 'Tab' && !e.shiftKey && folders[0] && folders[0] !== value && !value.endsWith('/')) {
            e.preventDefault();
            onChange(`${folders[0]}/`);
          }
        }}
        data-testid={testId}
      />
      <datalist id={listId}>
        {folders.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      {folders.length > 0 && (
        <ul className="workspace-folders" aria-label="Folders that match">
          {folders.slice(0, 8).map((f) => (
            <li key={f}>
              <button type="button" className="btn btn-ghost btn-small mono" onClick={() => onChange(`${f}/`)}>
                {f}
              </button>
            </li>
          ))}
        </ul>
      )}
      {between}
      {recentShown.length > 0 && (
        <section className="workspace-recent">
          <h3 className="workspace-recent-title">Recent folders</h3>
          <ul className="workspace-folders" aria-label="Recent folders" data-testid={recentTestId}>
            {recentShown.map((f) => (
              <li key={f}>
                <button type="button" className="btn btn-ghost btn-small mono" onClick={() => onChange(f)} aria-pressed={value === f}>
                  <Icon name="folder" size={13} /> {f}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

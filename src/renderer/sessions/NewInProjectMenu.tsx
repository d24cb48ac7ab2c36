import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../ui/index.ts';
import type { SidebarProject } from './session-groups.ts';
import './new-in-project-menu.css';

interface Props {
  projects: readonly SidebarProject[];
  /** A conversation in no project (the app's default folder). */
  onNew(): void;
  onNewInProject(projectId: string): void;
}

/**
 * The ▾ beside New: a menu of No project and each project, to start a conversation in one. Keyboard: Enter,
 * Space or ↓ opens it on the first item, ↑/↓ (Home/End) move, Enter picks, Escape closes back to the button,
 * Tab closes it and moves on.
 */
export function NewInProjectMenu({ projects, onNew, onNewInProject }: Props) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const away = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  const pick = (run: () => void) => {
    setOpen(false);
    run();
  };
  return (
    <span className="new-in-project">
      <button
        ref={button}
        type="button"
        className="btn btn-small new-in-project-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label="New conversation in a project"
        title="New conversation in a project"
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        data-testid="new-in-project"
      >
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Start a conversation in"
          className="new-in-project-menu"
          data-testid="new-in-project-menu"
          onKeyDown={(e) => {
            const all = items();
            const at = all.indexOf(document.activeElement as HTMLButtonElement);
            const move = (i: number) => {
              e.preventDefault();
              all[(i + all.length) % all.length]?.focus();
            };
            if (e.key === 'ArrowDown') move(at + 1);
            else if (e.key === 'ArrowUp') move(at - 1);
            else if (e.key === 'Home') move(0);
            else if (e.key === 'End') move(all.length - 1);
            else if (e.key === 'Escape') {
              e.preventDefault();
              setOpen(false);
              button.current?.focus();
            } else if (e.key === 'Tab') setOpen(false);
          }}
        >
          <div className="new-in-project-title" aria-hidden="true">
            New conversation in
          </div>
          <button type="button" role="menuitem" tabIndex={-1} className="new-in-project-item" onClick={() => pick(onNew)}>
            <span className="new-in-project-name">No project</span>
          </button>
          {projects.map((p) => (
            <button
              key={p.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="new-in-project-item"
              title={p.folder}
              onClick={() => pick(() => onNewInProject(p.id))}
            >
              <Icon name="folder" size={13} />
              <span className="new-in-project-name">{p.name}</span>
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
